// The float lab's lesson from Abecassis 2012, SIMSURF §14.3.2 (compute/floatlab/denormals.h): the
// denormal penalty on this CPU, with DAZ and FTZ off and on, beside the GPU's, as a table in the
// panel, printed text (the float report) and JSON.
#pragma once
#include "app/widgets/table.h"
#include "compute/floatlab/denormals.h"

#include <nlohmann/json.hpp>

TableData denormal_table(const floatlab::DenormalPenalty& p);
void print_denormals(const floatlab::DenormalPenalty& p);
nlohmann::json denormals_json(const floatlab::DenormalPenalty& p);
// The panel's section: a button that times the loops (a second or so), then the table.
void denormals_panel(gpu::Context& ctx, floatlab::DenormalPenalty& p);
