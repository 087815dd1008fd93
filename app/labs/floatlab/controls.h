// The float lab's "what the driver promises" section (compute/floatlab/controls.h): each float
// control the device offers, asked for in SPIR-V and tested, and whether `precise` is kept;
// printed for `vklab floatlab --report`, as JSON, and in the panel.
#pragma once
#include "app/widgets/table.h"
#include "compute/floatlab/controls.h"

#include <nlohmann/json.hpp>

void print_controls(const std::vector<floatlab::Promise>& promises, const floatlab::ContractionTest& c);
nlohmann::json controls_test_json(const std::vector<floatlab::Promise>& promises, const floatlab::ContractionTest& c);
TableData controls_table(const std::vector<floatlab::Promise>& promises);  // the panel's table
void controls_panel(const std::vector<floatlab::Promise>& promises, const floatlab::ContractionTest& c);
