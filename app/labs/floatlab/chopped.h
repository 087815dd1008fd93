// The float lab's like-for-like lesson (compute/floatlab/chopped.h): Da Graça 2006's probes and
// table 4.1's operators under rounding towards zero, as its GPUs chopped, on this GPU where it
// offers the float control and on this CPU, as a table (panel, printed report), a picture
// (Picture = towards zero) and JSON.
#pragma once
#include "app/widgets/chart_picture.h"
#include "app/widgets/table.h"
#include "compute/floatlab/chopped.h"

#include <nlohmann/json.hpp>

TableData chopped_table(const floatlab::Chopped& c);
ChartPicture chopped_chart(const floatlab::Chopped& c);
void print_chopped(const floatlab::Chopped& c);
nlohmann::json chopped_json(const floatlab::Chopped& c);
// The panel's section: what the device can do, then the table.
void chopped_panel(const floatlab::Chopped& c);
