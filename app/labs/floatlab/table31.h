// The float lab's table 3.1 (compute/floatlab/table31.h): error ranges in ulps against MPFR,
// beside the report's 2006 figures; printed for `vklab floatlab --report`, as JSON, in the panel.
#pragma once
#include "app/widgets/table.h"
#include "compute/floatlab/division.h"
#include "compute/floatlab/table31.h"

#include <nlohmann/json.hpp>

void print_table31(const std::vector<floatlab::ErrorRange>& rows, const floatlab::DivisionReading& division);
nlohmann::json table31_json(const std::vector<floatlab::ErrorRange>& rows);
nlohmann::json division_json(const floatlab::DivisionReading& d);
TableData table31_table(const std::vector<floatlab::ErrorRange>& rows);  // the panel's table
void table31_panel(const std::vector<floatlab::ErrorRange>& rows, const floatlab::DivisionReading& division);
std::string division_text(const floatlab::DivisionReading& d);  // one sentence
