// The float lab's pictures, each a labelled chart (app/widgets/chart_picture.h): the probes' verdicts
// beside IEEE-754 and the 2006 GPUs, the bits of TEST 5 and 6 annotated, and the error of each
// operation over its input range.
#pragma once
#include "app/widgets/chart_picture.h"
#include "compute/floatlab/probes.h"
#include "compute/floatlab/table31.h"

#include <string>
#include <utility>
#include <vector>

// The "verdict" colour map's three values: a cell that differs, says nothing, agrees.
constexpr float kDiffers = 0, kNoVerdict = 0.5f, kAgrees = 1;
struct VerdictRow {
  std::string tick;                                  // the row's name at the left
  std::vector<std::pair<std::string, float>> cells;  // text and verdict, one a column
};
// A table as a picture: a column a head, each as wide as its longest text, cells coloured by verdict.
ChartPicture verdict_table_chart(const std::string& title, const std::string& key,
                                 const std::vector<std::string>& heads, const std::vector<VerdictRow>& rows);
ChartPicture verdict_chart(const floatlab::Report& report);
ChartPicture bits_chart(const floatlab::Report& report);
ChartPicture ulp_chart(const floatlab::UlpMap& map);
ChartPicture table31_chart(const std::vector<floatlab::ErrorRange>& rows);
// TEST 5 | gap | TEST 6: one row per i = 1..64, one column per bit (sign first).
std::vector<float> bit_picture(const floatlab::Report& report);
