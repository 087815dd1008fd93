// compute/machining, seed 003 ch. 7: the ways a compute engine can lower a brin. The
// compare-and-swap loop and the lock per brin must give what atomicMin gives, bit for bit, on
// every rasterizing engine, in single and double precision; without atomics a race can only
// lose a lowering, so every brin stays at or above the atomic result and at or below the stock.
#include "compute/machining/zbuffer.h"
#include "tests/helpers.h"
#include "tests/machining/helpers.h"

#include <cstring>

using namespace machining;

namespace {

class MachiningAtomic : public GpuTest {
 protected:
  template <class R>
  std::vector<R> mill(Engine e, Atomic a, const Stock& s, const Mesh& tool, const std::vector<Position>& path) {
    return mill_with<R>(ctx(), e, a, HitTest::Edge, s, tool, path, 6000);
  }
  // `stacked`: 64 positions over the same point at depths in a shuffled order, so that
  // neighbouring invocations lower the same brins at once (the position engine's lanes meet
  // there in step), deeper ones before and after shallower ones: contention a broken
  // compare-and-swap or lock would show.
  template <class R>
  void check(bool f64, bool stacked) {
    Stock s;
    s.nx = 64, s.ny = 48, s.d = 0.5f, s.x0 = 0.25f, s.y0 = -0.5f, s.f64 = f64;
    auto tool = make_tool("sphere", 6.0f, 320);
    auto path = generate_path("random", 30.0f, 40, 1.0f, 7);
    if (stacked) {
      path.assign(64, Position{});
      for (size_t p = 0; p < path.size(); ++p) path[p].tip = {16.1f, 11.3f, -3.0f + 0.03f * float(p * 37 % 64)};
    }
    const std::string precision = std::string(f64 ? "double" : "single") + (stacked ? ", stacked" : "");
    for (Engine e : {Engine::PerPosition, Engine::PerTriangle, Engine::Fine, Engine::Persistent}) {
      const std::string engine = engine_names()[size_t(e)];
      auto native = mill<R>(e, Atomic::Native, s, tool, path);
      size_t lowered = 0;
      for (R h : native) lowered += h < 0;
      ASSERT_GT(lowered, 100u) << "the path should cut";
      for (Atomic a : {Atomic::Cas, Atomic::Lock}) {
        auto h = mill<R>(e, a, s, tool, path);
        // lavapipe ends an invocation after 65 535 loop iterations: a lane spinning while the thread
        // holding its lock is preempted (two tests at once on two cores) can reach that and lose its
        // cut. Such a run is tried once more; a lock that does not lock fails both (tried).
        if (a == Atomic::Lock && std::memcmp(h.data(), native.data(), h.size() * sizeof(R)) != 0 &&
            ctx().info.name.find("llvmpipe") != std::string::npos) {
          std::printf("%s, lock, %s: unlike atomicMin once; again\n", engine.c_str(), precision.c_str());
          h = mill<R>(e, a, s, tool, path);
        }
        ASSERT_EQ(std::memcmp(h.data(), native.data(), h.size() * sizeof(R)), 0)
            << engine << ", " << atomic_names()[size_t(a)] << ", " << precision;
      }
      auto raced = mill<R>(e, Atomic::None, s, tool, path);
      size_t lost = 0;
      for (size_t i = 0; i < raced.size(); ++i) {
        ASSERT_GE(height_key(raced[i]), height_key(native[i])) << engine << ", none, brin " << i;
        ASSERT_LE(raced[i], R(0)) << engine << ", none, brin " << i << " above the stock";
        lost += raced[i] != native[i];
      }
      std::printf("%s, %s, no atomics: %zu of %zu brins left too high by a race\n", engine.c_str(), precision.c_str(),
                  lost, raced.size());
      // lavapipe runs a subgroup's lanes in step and stores them in lane order: the last position
      // of a group wins, deeper or not.
      if (stacked && e == Engine::PerPosition && ctx().info.name.find("llvmpipe") != std::string::npos) {
        EXPECT_GT(lost, 50u) << "the stacked positions should race";
      }
    }
  }
};

TEST_F(MachiningAtomic, CompareAndSwapAndLocksEqualAtomicMinAndARaceOnlyLosesCutsInSingle) {
  for (bool stacked : {false, true}) check<float>(false, stacked);
}

TEST_F(MachiningAtomic, CompareAndSwapAndLocksEqualAtomicMinAndARaceOnlyLosesCutsInDouble) {
  if (!ctx().int64_atomics) GTEST_SKIP() << "no 64-bit atomics / fp64 on this device";
  for (bool stacked : {false, true}) check<double>(true, stacked);
}

}  // namespace
