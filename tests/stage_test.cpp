// The window as a teacher's instrument, the parts that need no display: a preset loaded mid-run
// starts afresh exactly as --preset does, the legend's band never covers the picture, its lines
// wrap between words instead of shrinking (the window's own tests are in window_test.cpp).
#include "app/core/presets.h"
#include "app/core/session.h"
#include "app/widgets/table.h"
#include "render/legend.h"
#include "render/text_mesh.h"
#include "tests/helpers.h"

#include <sstream>

namespace {

void run_steps(Session& s, uint32_t steps) {
  s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, steps); });
  s.collect_frame();
}

// The lab's whole state (what step back keeps), byte for byte.
std::vector<std::vector<uint8_t>> state(const Session& s) {
  std::vector<std::vector<uint8_t>> out;
  for (const StatePart& p : s.lab().state_parts())
    out.push_back(p.buffer ? p.buffer->download<uint8_t>() : p.image->download<uint8_t>());
  return out;
}

bool overlaps(VkRect2D a, VkRect2D b) {
  return a.offset.x < b.offset.x + int32_t(b.extent.width) && b.offset.x < a.offset.x + int32_t(a.extent.width) &&
         a.offset.y < b.offset.y + int32_t(b.extent.height) && b.offset.y < a.offset.y + int32_t(a.extent.height);
}

bool inside(VkRect2D in, VkRect2D out) {
  return in.offset.x >= out.offset.x && in.offset.y >= out.offset.y &&
         in.offset.x + int32_t(in.extent.width) <= out.offset.x + int32_t(out.extent.width) &&
         in.offset.y + int32_t(in.extent.height) <= out.offset.y + int32_t(out.extent.height);
}

}  // namespace

// The wave keeps its water through a rebuild that keeps its size; a preset must not: loaded
// after 30 steps it starts at step 0, and 10 steps later the water is the water of
// --preset wave/seed-damping after 10 steps.
TEST(Stage, APresetLoadedMidRunStartsAtStepZeroAsOnTheCommandLine) {
  const Preset& preset = find_preset("wave/seed-damping");
  Session running(validated_options(), make_lab("wave"), Session::Parts{false, false});
  run_steps(running, 30);
  ASSERT_EQ(running.lab().steps_done(), 30u);
  running.load_preset(preset);
  ASSERT_TRUE(running.error.empty()) << running.error;
  running.apply_rebuild();
  ASSERT_TRUE(running.error.empty()) << running.error;
  EXPECT_EQ(running.lab().steps_done(), 0u);
  EXPECT_NE(running.preset_message.find("step 0"), std::string::npos) << running.preset_message;
  run_steps(running, 10);

  auto fresh_lab = make_lab("wave");
  apply_preset(preset, fresh_lab->params());
  Session fresh(validated_options(), std::move(fresh_lab), Session::Parts{false, false});
  run_steps(fresh, 10);
  EXPECT_EQ(running.lab().params().to_json(), fresh.lab().params().to_json());
  EXPECT_EQ(running.lab().steps_done(), fresh.lab().steps_done());
  auto a = state(running), b = state(fresh);
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "the water after the preset loaded mid-run differs from a fresh --preset run";
  EXPECT_EQ(running.ctx().validation_count(), 0u);
  EXPECT_EQ(fresh.ctx().validation_count(), 0u);
}

// For pictures wide, tall, small and large, and legends short and long: the box lies in the
// band, outside the lab's picture and inside the frame; the picture keeps most of the frame.
TEST(Stage, TheLegendsBandNeverCoversThePicture) {
  render::Legend shortest{{"Heat diffusion - Bleton 2005", "step 60"}, {}};
  render::Legend with_bar{{"Heat diffusion - Bleton 2005", "step 60", "size 256 cells, cd 0.8, boundary insulated"},
                          render::LegendBar{"heat", 0, 1, "temperature (no unit), range: min to max"}};
  render::Legend longest = with_bar;
  longest.lines.push_back(
      "operator banded, side 128 (256² values), layout texture, data fields, index integer, on your kernel "
      "(exercise linalg/axpby), which is a long line for any legend");
  for (VkRect2D area : {VkRect2D{{0, 0}, {1280, 800}}, VkRect2D{{420, 0}, {860, 800}}, VkRect2D{{0, 0}, {400, 900}},
                        VkRect2D{{0, 0}, {1920, 1080}}, VkRect2D{{300, 0}, {500, 400}}}) {
    for (const auto* legend : {&shortest, &with_bar, &longest}) {
      std::ostringstream at;
      at << area.extent.width << "x" << area.extent.height << "+" << area.offset.x << ", " << legend->lines.size()
         << " lines";
      auto L = render::legend_layout(*legend, area, 1.5f);
      ASSERT_GT(L.box.extent.width, 0u) << at.str();
      EXPECT_FALSE(overlaps(L.box, L.picture)) << at.str();
      EXPECT_TRUE(inside(L.box, area)) << at.str();
      EXPECT_TRUE(inside(L.picture, area)) << at.str();
      EXPECT_GE(double(L.picture.extent.width) * L.picture.extent.height,
                0.45 * double(area.extent.width) * area.extent.height)
          << at.str();
      EXPECT_GE(L.scale, render::picture_text_scale(float(area.extent.height)));
      auto v = render::legend_vertices(*legend, area, 1.5f);
      for (size_t i = 0; i < v.size(); i += 8) {  // every vertex of the legend in its box
        EXPECT_GE(v[i], float(L.box.offset.x) - 0.5f) << at.str();
        EXPECT_LE(v[i], float(L.box.offset.x + int32_t(L.box.extent.width)) + 0.5f) << at.str();
        EXPECT_GE(v[i + 1], float(L.box.offset.y) - 0.5f) << at.str();
        EXPECT_LE(v[i + 1], float(L.box.offset.y + int32_t(L.box.extent.height)) + 0.5f) << at.str();
      }
    }
  }
  // A square grid in a wide frame keeps its size: the band takes the empty margin beside it.
  auto wide = render::legend_layout(with_bar, {{0, 0}, {1280, 800}}, 1.5f);
  EXPECT_EQ(wide.picture.extent.height, 800u);
  EXPECT_GE(wide.picture.extent.width, 800u);
  // No legend, no band.
  auto none = render::legend_layout({}, {{0, 0}, {1280, 800}}, 1.5f);
  EXPECT_EQ(none.picture.extent.width, 1280u);
  EXPECT_EQ(none.box.extent.width, 0u);
}

// Long lines wrap between words (inside a word only where it alone is too wide) and every
// letter stays at the legend's one size.
TEST(Stage, LegendLinesWrapBetweenWordsAndNeverShrink) {
  const float s = 2;
  const std::string text = "tool_shape sphere, path spiral, height_scale 4 × depth of cut (stock units)";
  auto lines = render::wrap_text(text, 200, s);
  ASSERT_GT(lines.size(), 1u);
  std::string joined;
  for (auto& l : lines) {
    EXPECT_LE(render::TextMesh::width(l) * s, 200.0f) << l;
    EXPECT_FALSE(l.empty());
    EXPECT_NE(l.front(), ' ');
    joined += (joined.empty() ? "" : " ") + l;
  }
  EXPECT_EQ(joined, text);
  auto cut = render::wrap_text("Ça_ne_tient_pas_sur_une_ligne_de_cette_largeur", 120, s);
  ASSERT_GT(cut.size(), 1u);
  std::string back;
  for (auto& l : cut) {
    EXPECT_LE(render::TextMesh::width(l) * s, 120.0f) << l;
    back += l;
  }
  EXPECT_EQ(back, "Ça_ne_tient_pas_sur_une_ligne_de_cette_largeur");
  // In a narrow picture the legend is taller (wrapped), its letters the same size.
  render::Legend l{{"Milling by Z-buffer - Abecassis 2012", text}, {}};
  auto narrow = render::legend_layout(l, {{0, 0}, {360, 800}}, 1.5f);
  auto wide = render::legend_layout(l, {{0, 0}, {1600, 800}}, 1.5f);
  EXPECT_EQ(narrow.scale, wide.scale);
  EXPECT_GT(narrow.lines.size(), wide.lines.size());
}

// A table saved as CSV holds what it shows, quoted where a cell needs it.
TEST(Stage, ATablesCsvHoldsItsCells) {
  TableData t{"t", "a table", {"op", "what, said", "value"}};
  t.rows = {{"add", "rounds \"to nearest\"", "0.5"}, {"mul", "two\nlines", "1e-07"}};
  EXPECT_EQ(table_csv(t), "op,\"what, said\",value\nadd,\"rounds \"\"to nearest\"\"\",0.5\nmul,\"two\nlines\",1e-07\n");
}

// The float lab's verdict table headless (--plot NAME=FILE.png, as for a plot): a picture sized
// to its content, every word whole, and its CSV with a row a probe, as the panel shows them.
TEST(Stage, TheFloatLabsTablesAreSavedAsPictureAndCsv) {
  auto dir = scratch("tables");
  auto r = run_process(
      vklab_args("--headless --lab floatlab --set random_count=1024 --set ff_count=1024 --size 1280x800 "
                 "--plot floatlab-probes=" +
                 (dir / "probes.png").string() + " --plot floatlab-rounding=" + (dir / "rounding.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto csv = file_bytes(dir / "probes.csv");
  ASSERT_FALSE(csv.empty());
  EXPECT_EQ(csv.rfind("test,question,found,IEEE,7800GTX,RX1800XL\n", 0), 0u) << csv;
  EXPECT_GE(std::count(csv.begin(), csv.end(), '\n'), 20);
  EXPECT_NE(csv.find("TEST 3,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("unchanged"), std::string::npos) << csv;  // whole words, as the "unchang|ed" was not
  auto pic = load_picture(dir / "probes.png");
  ASSERT_FALSE(pic.empty());
  EXPECT_GT(pic.w, 800);  // as wide as its columns at 14-pixel letters, whatever --size says
  EXPECT_FALSE(file_bytes(dir / "rounding.csv").empty());
  r = run_process(vklab_args("--headless --lab floatlab --set random_count=1024 --plot nope=x.png"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("floatlab-probes"), std::string::npos) << "an unknown name lists the tables: " << r.err;
}
