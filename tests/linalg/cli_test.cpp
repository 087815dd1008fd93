// The linear algebra lab from the command line: CG headless, its iteration cap, the quick bench with the seed's tables.
#include "compute/io/npy.h"
#include "compute/linalg/fields.h"
#include "tests/helpers.h"

#include <stb_image.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

namespace fs = std::filesystem;

// The linear algebra lab end to end: CG solves the implicit Laplacian system headless,
// the dump holds the solution and its residual history.
TEST(Cli, LinalgCgConvergesHeadlessAndDumps) {
  for (std::string variant : {"thesis", "modern", "pipelined"}) {
    auto dir = scratch("linalg-" + variant);
    std::string set = variant == "pipelined" ? "modern --set cg_form=pipelined" : variant;
    auto r = run_process(vklab_args(
        "--headless --validate --lab linalg --set operator=cg --set side=32 --set variant=" + set +
        " --set layout=" + (variant == "thesis" ? "texture" : "buffer") + " --steps 30 --size 200x200 --capture " +
        (dir / "cg.png").string() + " --dump " + (dir / "state").string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
    EXPECT_TRUE(j["state"]["cg_converged"].get<bool>()) << j.dump(2);
    EXPECT_LT(j["state"]["true_relative_residual"].get<double>(), 1e-4);
    std::vector<size_t> shape;
    auto x = read_npy(dir / "state" / "result.npy", &shape);
    EXPECT_EQ(shape, (std::vector<size_t>{64, 64}));
    auto hist = read_npy(dir / "state" / "cg_residual.npy");
    ASSERT_GT(hist.size(), 2u);
    if (variant == "thesis")  // from x0 = b ('MGC SUR GPU', line 4): ||b - A·b|| / ||b||, A = I - 10·L far from I
      EXPECT_GT(hist[0], 2.0f);
    else  // from x0 = 0: ||b|| / ||b||
      EXPECT_FLOAT_EQ(hist[0], 1.0f);
    EXPECT_LE(hist.back(), 1e-5f);
    // x solves (I - c·L) x = b with b >= 0: an M-matrix, so x >= 0 and not all zero
    float mx = 0;
    for (float v : x) {
      EXPECT_GE(v, -1e-6f);
      mx = std::max(mx, v);
    }
    EXPECT_GT(mx, 0.05f);
  }
}

TEST(Cli, LinalgQuickBenchHasEveryTableWithTheSeedBeside) {
  auto dir = scratch("linalg-bench");
  auto r = run_process(vklab_args("bench --lab linalg --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "b.json"));
  auto rows = j["labs"]["linalg"];
  EXPECT_GT(j["peaks"]["fp32_gflops"].get<double>(), 0.0);
  EXPECT_GT(j["peaks"]["saxpy_gbps"].get<double>(), 0.0);
  std::set<std::string> passes;
  for (auto& row : rows) {
    passes.insert(row["pass"].get<std::string>());
    if (row["pass"].get<std::string>().starts_with("vec.set")) {  // operator[]: bytes over the bus, no kernel
      EXPECT_EQ(row["reference"]["bytes_moved"], row["pass"] == "vec.set.texture" ? 32 : 4) << row.dump();
      continue;
    }
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    EXPECT_GT(row["reference"]["cpu_single_thread_ms"].get<double>(), 0.0) << row.dump();
    auto& roof = row["roofline"];  // every row under the roof that limits it
    EXPECT_TRUE(roof["bound"] == "memory" || roof["bound"] == "fp32") << row.dump();
    EXPECT_GT(roof["percent_of_bound"].get<double>(), 0.0) << row.dump();
    EXPECT_NEAR(roof["arithmetic_intensity_flop_per_byte"].get<double>(),
                row["flops"].get<double>() / row["bytes"].get<double>(), 1e-9)
        << row.dump();
    auto& blas = row["reference"]["openblas"];  // the thesis's BLAS column, one thread and all
    EXPECT_GT(blas["one_thread_ms"].get<double>(), 0.0) << row.dump();
    EXPECT_GT(blas["all_threads_ms"].get<double>(), 0.0) << row.dump();
    EXPECT_GE(blas["threads"].get<int>(), 1) << row.dump();
    if (row["reference"].contains("cpu_figures_scaled")) {  // the largest size: a size below's, times 4
      auto& scaled = row["reference"]["cpu_figures_scaled"];
      EXPECT_DOUBLE_EQ(scaled["factor"].get<double>(), 4.0) << row.dump();
      const nlohmann::json* smaller = nullptr;  // the last row of its pass and that size before it
      for (auto& before : rows) {
        if (&before == &row) break;
        if (before["pass"] == row["pass"] && before["size"] == scaled["from"]) smaller = &before;
      }
      ASSERT_NE(smaller, nullptr) << row.dump();
      EXPECT_DOUBLE_EQ(row["reference"]["cpu_single_thread_ms"].get<double>(),
                       4 * (*smaller)["reference"]["cpu_single_thread_ms"].get<double>());
      EXPECT_DOUBLE_EQ(blas["all_threads_ms"].get<double>(),
                       4 * (*smaller)["reference"]["openblas"]["all_threads_ms"].get<double>());
      EXPECT_FALSE(blas.contains("max_relative_difference_vs_cpu_reference")) << row.dump();
    } else if (row["pass"].get<std::string>().rfind("dot", 0) != 0) {  // a dot's cancellation: tested in BlasDot...
      EXPECT_LT(blas["max_relative_difference_vs_cpu_reference"].get<double>(), 2e-6) << row.dump();
    }
    bool wrong_quads = row["reference"].value("wrong_quad_addresses_cpu_twin", 0) > 0;
    if (row["reference"].contains("max_relative_error_vs_cpu")) {  // frac indexing's wrong quads show as error
      if (wrong_quads)
        EXPECT_GT(row["reference"]["max_relative_error_vs_cpu"].get<double>(), 1e-2) << row.dump();
      else
        EXPECT_LT(row["reference"]["max_relative_error_vs_cpu"].get<double>(), 1e-5) << row.dump();
    }
    if (row["pass"] == "banded12.frac.thesis.texture") {
      // 6 quads where division is IEEE's (lavapipe), later on devices that divide less exactly (an H100: 9)
      if (j["device"]["name"].get<std::string>().find("llvmpipe") != std::string::npos) {
        EXPECT_EQ(row["reference"]["gpu_sweep"]["first_wrong_quads"], 6) << row.dump();
      }
      EXPECT_GT(row["reference"]["gpu_sweep"]["first_wrong_quads"].get<int>(), 2) << row.dump();
      EXPECT_EQ(wrong_quads, row["size"] == "20x20x4") << row.dump();  // the CPU twin's count
    }
  }
  for (auto p : {"banded12.thesis.texture", "banded12.modern.buffer", "axpby.thesis.texture", "axpby.modern.buffer",
                 "norm.thesis.texture", "norm.modern.buffer", "cg.thesis.texture", "cg.modern.buffer",
                 "cg.one-dispatch.buffer", "cg.pipelined.buffer", "dense.thesis.texture", "dense.modern.buffer",
                 "banded12.frac.thesis.texture", "max.thesis.texture", "max.modern.buffer", "min.thesis.texture",
                 "min.modern.buffer", "vec.set.texture", "vec.set.buffer"})
    EXPECT_TRUE(passes.count(p)) << p;
  // CG's bytes an unknown as each form declares them, and the pipelined pass's strip heights timed
  for (auto& row : rows) {
    std::string pass = row["pass"];
    double per_unknown = row["bytes"].get<double>() / row["elements"].get<double>();
    if (pass == "cg.modern.buffer") {
      EXPECT_DOUBLE_EQ(per_unknown, 64.0) << row.dump();  // 5 diagonals + 11 passes
    }
    if (pass == "cg.one-dispatch.buffer") {
      EXPECT_DOUBLE_EQ(per_unknown, 40.0) << row.dump();
    }
    if (pass == "cg.pipelined.buffer") {
      EXPECT_DOUBLE_EQ(per_unknown, 24.0) << row.dump();
      EXPECT_GE(row["reference"]["strip_rows"].get<int>(), 1) << row.dump();
      ASSERT_EQ(row["reference"]["strip_rows_sweep"].size(), 5u) << row.dump();
      for (auto& point : row["reference"]["strip_rows_sweep"]) EXPECT_GT(point["median_ms"].get<double>(), 0.0);
    }
    if (pass == "max.thesis.texture" || pass == "min.thesis.texture") {  // the 4:1 passes, by their formula
      EXPECT_EQ(row["reference"]["dispatches"], row["reference"]["passes_by_formula"]) << row.dump();
    }
    if (pass == "max.modern.buffer" || pass == "min.modern.buffer") {
      EXPECT_EQ(row["reference"]["dispatches"], 1);
    }
    if (pass.rfind("cg.", 0) == 0) {  // as many iterations as the warm-up's time allowed: the double twin's residual
      EXPECT_GE(row["reference"]["cg_iterations"].get<int>(), 1) << row.dump();
      ASSERT_TRUE(row["reference"].contains("cpu_twin_true_relative_residual")) << row.dump();
      double gpu = row["reference"]["true_relative_residual"],
             twin = row["reference"]["cpu_twin_true_relative_residual"];
      EXPECT_NEAR(gpu, twin, 1e-2 * twin + 1e-5) << row.dump();
    }
  }
}

TEST(Cli, LinalgCgStopsAtTheIterationCap) {
  auto dir = scratch("linalg-cap");
  auto r =
      run_process(vklab_args("--headless --lab linalg --set operator=cg --set side=32 --set cg_max_iterations=25 "
                             "--set cg_check_every=10 --steps 10 --dump " +
                             (dir / "state").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
  EXPECT_EQ(j["state"]["cg_iterations"], 25);
  EXPECT_FALSE(j["state"]["cg_converged"].get<bool>());
  EXPECT_EQ(read_npy(dir / "state" / "cg_residual.npy").size(), 26u);
}

// The pictures: operands and result side by side, CG's residual, the layout view; each drawn
// headless without a validation message and different from the others; the dumped residual
// is the r whose norm the residual history ends with.
TEST(Cli, LinalgPicturesShowFieldsResidualAndLayout) {
  auto dir = scratch("linalg-pictures");
  std::vector<std::string> pngs;
  for (std::string p : {"fields", "residual", "layout"}) {
    auto png = (dir / (p + ".png")).string();
    auto r =
        run_process(vklab_args("--headless --validate --lab linalg --set operator=cg --set side=32 --set picture=" + p +
                               " --steps 4 --size 640x400 --capture " + png + " --dump " + (dir / p).string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    pngs.push_back(file_bytes(png));
  }
  EXPECT_NE(pngs[0], pngs[1]);
  EXPECT_NE(pngs[1], pngs[2]);
  EXPECT_NE(pngs[0], pngs[2]);
  auto r = read_npy(dir / "residual" / "residual.npy");
  auto hist = read_npy(dir / "residual" / "cg_residual.npy");
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "residual" / "params.json"));
  EXPECT_EQ(hist.size(), j["state"]["cg_iterations"].get<size_t>() + 1);
  double rr = 0, bb = 0;
  for (float v : r) rr += double(v) * v;
  for (float v : linalg::grid_field(64, 64, "spots", 1)) bb += double(v) * v;  // b, as the lab makes it
  ASSERT_EQ(r.size(), 64u * 64);
  EXPECT_NEAR(std::sqrt(rr / bb), hist.back(), 1e-3 * hist.back()) << "the dumped r is the residual CG tracks";
}
