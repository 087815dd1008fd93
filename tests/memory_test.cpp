// gpu/memory: every buffer and image is placed in a block without overlapping another, large
// ones on the chosen alignment; freeing gives holes back (merged), and an empty block back to
// the driver; host-visible buffers in one block keep their own bytes; the dedicated strategy
// makes one allocation a resource. Contents survive whatever the placement.
#include "compute/gpu/memory.h"
#include "compute/gpu/resources.h"
#include "tests/helpers.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

using Memory = GpuTest;

TEST(MemoryOptions, ParseAndRefuse) {
  auto p = gpu::parse_memory_options("pooled");
  EXPECT_TRUE(p.pooled);
  EXPECT_EQ(p.align, 2u << 20);
  auto q = gpu::parse_memory_options("pooled:256:64");
  EXPECT_EQ(q.align, 256u);
  EXPECT_EQ(q.block, 64u << 20);
  EXPECT_FALSE(gpu::parse_memory_options("dedicated").pooled);
  for (const char* bad : {"", "pool", "pooled:", "pooled:3", "pooled:256:0", "pooled:x", "dedicated:1", "pooled:1:2:3"})
    EXPECT_THROW(gpu::parse_memory_options(bad), std::invalid_argument) << bad;
  EXPECT_EQ(gpu::describe(p), "pooled, 256 MiB blocks, 2 MiB alignment");
}

// The allocator on its own, with requirements made up (no resources bound).
TEST_F(Memory, PlacesWithoutOverlapAndGivesBlocksBack) {
  gpu::MemoryOptions o;
  o.block = 8u << 20, o.align = 1u << 20;
  gpu::Allocator a(ctx().device, ctx().memory, o);
  std::vector<gpu::Allocation> live;
  uint32_t all_types = ~0u;
  for (VkDeviceSize size : {100u, 5000u, 3u << 20, 70u, 1u << 20, 9u << 20, 4096u, 2u << 20}) {
    VkMemoryRequirements req{size, 64, all_types};
    live.push_back(a.allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_NULL_HANDLE, VK_NULL_HANDLE));
    auto& x = live.back();
    EXPECT_GE(x.size, size);
    EXPECT_EQ(x.offset % 64, 0u);
    if (size >= o.align) {
      EXPECT_EQ(x.offset % o.align, 0u) << size;
    }
  }
  for (size_t i = 0; i < live.size(); ++i)
    for (size_t j = i + 1; j < live.size(); ++j)
      if (live[i].memory == live[j].memory) {
        EXPECT_TRUE(live[i].offset + live[i].size <= live[j].offset || live[j].offset + live[j].size <= live[i].offset)
            << i << " and " << j << " overlap";
      }
  auto s = a.stats();
  EXPECT_EQ(s.resources, live.size());
  EXPECT_LE(s.allocations, 3u) << "a few blocks, not one allocation a resource";
  EXPECT_GE(s.reserved, s.used);
  // Free every other one, then a resource that fits a merged hole reuses the block.
  for (size_t i = 0; i < live.size(); i += 2) a.free(live[i]);
  auto again = a.allocate({100, 64, all_types}, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_NULL_HANDLE, VK_NULL_HANDLE);
  EXPECT_EQ(a.stats().allocations, s.allocations);
  a.free(again);
  {  // an owner's allocations are counted under its name until freed
    gpu::Allocator::Owner lab(a, "linalg");
    again = a.allocate({3u << 20, 64, all_types}, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_NULL_HANDLE, VK_NULL_HANDLE);
  }
  auto owners = a.owners();
  ASSERT_EQ(owners.size(), 2u);
  EXPECT_EQ(owners[0].first, "other");
  EXPECT_EQ(owners[1], (std::pair<std::string, uint64_t>{"linalg", 3u << 20}));
  a.free(again);
  EXPECT_EQ(a.owners().size(), 1u);
  for (size_t i = 1; i < live.size(); i += 2) a.free(live[i]);
  EXPECT_EQ(a.stats().used, 0u);
  EXPECT_EQ(a.stats().reserved, 0u) << "empty blocks go back to the driver";
  EXPECT_EQ(a.stats().allocations, 0u);
}

TEST_F(Memory, BuffersAndImagesKeepTheirContents) {
  auto before = ctx().allocator().stats();
  {
    std::vector<gpu::Buffer> host, device;
    for (int i = 0; i < 6; ++i) {
      auto v = random_floats(1000 + 517 * i, -1, 1, i);
      host.emplace_back(ctx(), v.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
      host.back().upload(v);
      device.emplace_back(ctx(), v.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
      device.back().upload(v);
    }
    gpu::Image img(ctx(), 33, 17, VK_FORMAT_R32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT);
    auto pixels = random_floats(33 * 17, -5, 5, 99);
    img.upload(pixels);
    for (int i = 0; i < 6; ++i) {
      auto v = random_floats(1000 + 517 * i, -1, 1, i);
      EXPECT_EQ(host[i].download<float>(), v) << i;
      EXPECT_EQ(device[i].download<float>(), v) << i;
    }
    EXPECT_EQ(img.download<float>(), pixels);
    EXPECT_GT(ctx().allocator().stats().resources, before.resources + 12);
  }
  EXPECT_EQ(ctx().allocator().stats().used, before.used);
}

TEST_F(Memory, DedicatedMakesOneAllocationAResource) {
  gpu::MemoryOptions o;
  o.pooled = false;
  gpu::Allocator a(ctx().device, ctx().memory, o);
  std::vector<gpu::Allocation> live;
  for (int i = 0; i < 5; ++i)
    live.push_back(a.allocate({4096, 64, ~0u},
                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                              VK_NULL_HANDLE, VK_NULL_HANDLE));
  EXPECT_EQ(a.stats().allocations, 5u);
  for (auto& x : live) {
    EXPECT_EQ(x.offset, 0u);
    EXPECT_NE(x.mapped, nullptr);
    a.free(x);
  }
  EXPECT_EQ(a.stats().reserved, 0u);
}

// The experiment from the command line: three strategies, then idle times and warm-ups, each
// trial timed, as JSON.
TEST(Cli, MemoryExperimentTimesEveryStrategy) {
  auto dir = scratch("memory-experiment");
  auto r = run_process(vklab_args("bench --memory-experiment --quick --validate --out " + (dir / "m.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto j = nlohmann::json::parse(std::ifstream(dir / "m.json"));
  auto sets = j["memory_experiment"];
  ASSERT_EQ(sets.size(), 3u + 6u);  // three strategies, then 2 idle times x 3 warm-ups
  EXPECT_EQ(sets[0]["strategy"], "dedicated (one allocation a resource)");
  EXPECT_EQ(sets[3]["idle_s"].get<double>(), 0.0);
  EXPECT_GT(sets[8]["idle_s"].get<double>(), 0.0);
  EXPECT_EQ(sets[8]["warmup_ms"].get<double>(), 100.0);  // --quick: a tenth of 1000 ms
  for (auto& s : sets) {
    ASSERT_EQ(s["trial_ms"].size(), 2u);
    for (auto& ms : s["trial_ms"]) EXPECT_GT(ms.get<double>(), 0.0);
    EXPECT_LE(s["min_ms"].get<double>(), s["max_ms"].get<double>());
  }
  // a strategy the allocator does not know is refused as bad usage
  r = run_process(vklab_args("bench --memory pooled:3 --quick"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--memory takes"), std::string::npos) << r.err;
}
