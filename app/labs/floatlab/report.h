// vklab floatlab --report: every probe of the float lab at the report's sizes, printed and
// written as JSON; and the JSON and text of each part, which the lab's dump shares.
#pragma once
#include "app/cli.h"

#include "compute/floatlab/floatfloat.h"
#include "compute/floatlab/probes.h"

#include <nlohmann/json.hpp>

nlohmann::json accuracy_json(const std::vector<floatlab::FfAccuracy>& acc);
nlohmann::json rounding_json(const std::vector<floatlab::RoundingRow>& rows);
nlohmann::json controls_json(const floatlab::FloatControls& c);
nlohmann::json report_json(const floatlab::Report& r);
int run_float_report(const Options& o);
