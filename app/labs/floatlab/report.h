// vklab floatlab --report: every probe of the float lab at the report's sizes, printed and
// written as JSON; and the JSON and text of each part, which the lab's dump shares.
#pragma once
#include "app/core/cli.h"
#include "app/labs/floatlab/paranoia.h"

#include "compute/floatlab/chopped.h"
#include "compute/floatlab/controls.h"
#include "compute/floatlab/denormals.h"
#include "compute/floatlab/division.h"
#include "compute/floatlab/floatfloat.h"
#include "compute/floatlab/paranoia.h"
#include "compute/floatlab/probes.h"
#include "compute/floatlab/table31.h"
#include "compute/floatlab/test9.h"
#include "compute/floatlab/ulp_cancellation.h"

#include <nlohmann/json.hpp>

nlohmann::json accuracy_json(const std::vector<floatlab::FfAccuracy>& acc);
nlohmann::json rounding_json(const std::vector<floatlab::RoundingRow>& rows);
nlohmann::json controls_json(const floatlab::FloatControls& c);
nlohmann::json report_json(const floatlab::Report& r);
// Every part of the report, as the lab's dump and --report write it.
struct ReportParts {
  const floatlab::Report& report;
  const std::vector<floatlab::FfAccuracy>& accuracy;
  const std::vector<floatlab::RoundingRow>& rounding;
  const floatlab::FloatControls& controls;
  const std::vector<floatlab::ParanoiaReport>& paranoia;
  const StageTable& stages;
  const std::vector<floatlab::ErrorRange>& table31;
  const floatlab::DivisionReading& division;
  const std::vector<floatlab::Promise>& promises;
  const floatlab::ContractionTest& contraction;
  const floatlab::SignSymmetry* test9;                // null: not run
  const floatlab::UlpCancellation* ulp_cancellation;  // Abecassis 2012 §14; null: not run
  const floatlab::DenormalPenalty* denormals;         // Abecassis 2012 §14.3.2; null or empty: not run
  const floatlab::Chopped* towards_zero;              // Da Graça 2006 under RTZ; null: not run
};
nlohmann::json report_parts_json(const ReportParts& r);
int run_float_report(const Options& o);
