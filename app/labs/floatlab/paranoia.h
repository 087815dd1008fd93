// The float lab's Paranoia (compute/floatlab/paranoia.h): run in every stage this device can
// store from, printed as the seed's annex A prints it (the SUMMARY beside the 7800 GTX's), as
// JSON for `vklab floatlab --report --out`, and in the panel.
#pragma once
#include "app/widgets/table.h"
#include "compute/floatlab/paranoia.h"
#include "compute/floatlab/stages.h"

#include <nlohmann/json.hpp>

#include <vector>

std::vector<floatlab::ParanoiaReport> paranoia_stages(gpu::Context& ctx, uint32_t random_pairs);
void print_paranoia(const std::vector<floatlab::ParanoiaReport>& stages);
nlohmann::json paranoia_json(const std::vector<floatlab::ParanoiaReport>& stages);
// The Paranoia summaries beside the report's annex A, as a table (app/widgets/table.h).
TableData paranoia_table(const std::vector<floatlab::ParanoiaReport>& stages);
void paranoia_panel(const std::vector<floatlab::ParanoiaReport>& stages);
// The seed's probes in every stage the device can store from (compute/floatlab/stages.h).
struct StageTable {
  std::vector<std::string> stages;
  std::vector<floatlab::StageProbe> rows;
};
StageTable stage_table(gpu::Context& ctx, uint32_t random_pairs);
void print_stage_table(const StageTable& t);
nlohmann::json stage_table_json(const StageTable& t);
TableData stage_table_data(const StageTable& t);  // the probes stage by stage, as a table
void stage_table_panel(const StageTable& t);
// The lines on which the stages' messages differ from the first stage's, "" where none do.
std::string stage_differences(const std::vector<floatlab::ParanoiaReport>& stages);
