// The float lab's lesson from Abecassis 2012, SIMSURF §14.2.2 / §14.5.1
// (compute/floatlab/ulp_cancellation.h): the rounding table and the cancellation examples as a
// picture (a table drawn as a chart), a panel section, printed text and JSON.
#pragma once
#include "app/core/cli.h"
#include "app/widgets/chart_picture.h"
#include "app/widgets/table.h"
#include "compute/floatlab/ulp_cancellation.h"

#include <nlohmann/json.hpp>

inline constexpr const char* kSimsurfSource = "Abecassis 2012, SIMSURF §14.2.2 / §14.5.1";

ChartPicture ulp_cancellation_chart(const floatlab::UlpCancellation& u);
void print_ulp_cancellation(const floatlab::UlpCancellation& u);
nlohmann::json ulp_cancellation_json(const floatlab::UlpCancellation& u);
// The panel's two tables (app/widgets/table.h).
TableData ulp_table(const floatlab::UlpCancellation& u);
TableData cancellation_table(const floatlab::UlpCancellation& u);
void ulp_cancellation_panel(const floatlab::UlpCancellation& u);
// vklab floatlab --cancellation [--out FILE.json]: the lesson alone, printed (and saved).
int run_ulp_cancellation(const Options& o);
