// The buffer inspector reads a lab's arrays back as typed values: a diffusion field's
// minimum and maximum are the field's own; float-float pairs add up; NaN and infinities are
// counted apart from the range; a vec4 grid keeps its row.
#include "app/core/inspector.h"
#include "compute/io/npy.h"
#include "tests/helpers.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

class InspectorTest : public GpuTest {};

TEST_F(InspectorTest, ReadsALabsFieldAsItIs) {
  auto lab = make_lab("diffusion");
  lab->params().set("size", "32");
  lab->build(ctx());
  auto items = lab->inspectables();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_TRUE(items[0].drawn);
  auto in = inspect(items[0], "float");
  EXPECT_EQ(in.count, 32u * 32u);
  EXPECT_EQ(in.width, 32u);
  auto field = items[0].data.buffer->download<float>();
  auto [lo, hi] = std::minmax_element(field.begin(), field.end());
  EXPECT_EQ(in.min, double(*lo));
  EXPECT_EQ(in.max, double(*hi));
  EXPECT_LT(in.min, in.max);
  EXPECT_EQ(in.nans + in.infs, 0u);
  for (size_t i : {size_t(0), size_t(517), size_t(1023)}) EXPECT_EQ(in.value(i), double(field[i]));
  auto as_int = inspect(items[0], "int");  // the same bytes read as another type
  EXPECT_EQ(as_int.count, 1024u);
  vkDeviceWaitIdle(ctx().device);
}

TEST_F(InspectorTest, TypesAndSpecialValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {1.0f, 1e-8f, 2.0f, -3e-9f, nan, 0.0f, -inf, 5.0f};
  gpu::Buffer b(ctx(), v.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  b.upload(v);
  Inspectable item{"test", {&b}, "float", 4};
  auto f = inspect(item, "float");
  EXPECT_EQ(f.count, 8u);
  EXPECT_EQ(f.nans, 1u);
  EXPECT_EQ(f.infs, 1u);
  EXPECT_EQ(f.min, -3e-9f);
  EXPECT_EQ(f.max, 5.0);
  auto ff = inspect(item, "float-float");
  EXPECT_EQ(ff.count, 4u);
  EXPECT_EQ(ff.width, 2u);  // a row of 4 floats is 2 pairs
  EXPECT_EQ(ff.value(0), 1.0 + double(1e-8f));
  EXPECT_EQ(ff.value(1), 2.0 - double(3e-9f));
  EXPECT_NE(ff.text(0).find("1.00000001"), std::string::npos) << ff.text(0);
  auto v4 = inspect(item, "vec4");
  EXPECT_EQ(v4.count, 2u);
  EXPECT_EQ(v4.value(1, 3), 5.0);
  EXPECT_EQ(v4.nans, 1u);
  EXPECT_EQ(inspect(item, "uint").value(0), double(0x3f800000u));
  auto v2 = inspect(item, "vec2");
  EXPECT_EQ(v2.count, 4u);
  EXPECT_EQ(v2.value(1, 1), double(-3e-9f));
  auto d = inspect(item, "double");  // the bytes of 1.0f, 1e-8f as one double
  double expect;
  std::memcpy(&expect, v.data(), 8);
  EXPECT_EQ(d.value(0), expect);
  EXPECT_THROW(inspect(item, "quad"), std::invalid_argument);
  // Every lab that keeps grids offers them.
  for (const char* name : {"wave", "cloth", "linalg"}) {
    auto lab = make_lab(name);
    lab->params().set(std::string(name) == "linalg" ? "side" : "size", "32");
    lab->build(ctx());
    EXPECT_FALSE(lab->inspectables().empty()) << name;
    for (auto& it : lab->inspectables()) EXPECT_GT(inspect(it, it.type).count, 0u) << name << " " << it.name;
    vkDeviceWaitIdle(ctx().device);
  }
}

// The machining stock's heights are stored as order-preserving keys (for the atomic minimum):
// read as "height key" they are the heights themselves; the mesh lab offers its coordinates
// and each field as its type.
TEST_F(InspectorTest, MachiningKeysAndMeshFieldsReadAsTheirValues) {
  auto lab = make_lab("machining");
  lab->params().set("stock_size", "64");
  lab->build(ctx());
  gpu::Profiler prof(ctx());
  ctx().submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    lab->step(cmd, prof, 40);
  });
  vkDeviceWaitIdle(ctx().device);
  auto items = lab->inspectables();
  ASSERT_EQ(items.size(), 1u);
  auto in = inspect(items[0], items[0].type);
  auto dir = scratch("inspect-machining");
  lab->dump(dir);
  std::vector<size_t> shape;
  auto heights = read_npy(dir / "heights.npy", &shape);
  ASSERT_EQ(in.count, heights.size());
  EXPECT_EQ(in.width, shape[1]);
  auto [lo, hi] = std::minmax_element(heights.begin(), heights.end());
  EXPECT_EQ(in.min, double(*lo));
  EXPECT_EQ(in.max, double(*hi));
  EXPECT_LT(in.min, in.max) << "the tool cut into the stock";
  for (size_t i : {size_t(0), heights.size() / 2 + 7, heights.size() - 1}) EXPECT_EQ(in.value(i), double(heights[i]));

  auto mesh = make_lab("mesh");
  mesh->build(ctx());
  auto fields = mesh->inspectables();
  ASSERT_GE(fields.size(), 1u);
  auto crd = inspect(fields[0], "vec4");
  EXPECT_EQ(fields[0].type, "vec4");
  EXPECT_GT(crd.count, 100u);
  for (size_t i = 0; i < crd.count; i += 97) EXPECT_EQ(crd.value(i, 3), 0.0);
  for (auto& f : fields) EXPECT_GT(inspect(f, f.type).count, 0u) << f.name;
  vkDeviceWaitIdle(ctx().device);
}
