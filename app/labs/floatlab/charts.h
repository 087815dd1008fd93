// The float lab's pictures, each a labelled chart (app/widgets/chart_picture.h): the probes' verdicts
// beside IEEE-754 and the 2006 GPUs, the bits of TEST 5 and 6 annotated, and the error of each
// operation over its input range.
#pragma once
#include "app/widgets/chart_picture.h"
#include "compute/floatlab/probes.h"
#include "compute/floatlab/table31.h"

ChartPicture verdict_chart(const floatlab::Report& report);
ChartPicture bits_chart(const floatlab::Report& report);
ChartPicture ulp_chart(const floatlab::UlpMap& map);
ChartPicture table31_chart(const std::vector<floatlab::ErrorRange>& rows);
// TEST 5 | gap | TEST 6: one row per i = 1..64, one column per bit (sign first).
std::vector<float> bit_picture(const floatlab::Report& report);
