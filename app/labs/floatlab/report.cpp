#include "app/labs/floatlab/report.h"

#include "app/labs/floatlab/chopped.h"
#include "app/labs/floatlab/denormals.h"
#include "compute/io/output.h"

#include "app/core/session.h"
#include "app/labs/floatlab/charts.h"
#include "app/labs/floatlab/controls.h"
#include "app/labs/floatlab/paranoia.h"
#include "app/labs/floatlab/table31.h"
#include "app/labs/floatlab/ulp_cancellation.h"
#include "compute/floatlab/test9.h"

#include <chrono>
#include <cstdio>
#include <fstream>

nlohmann::json accuracy_json(const std::vector<floatlab::FfAccuracy>& acc) {
  nlohmann::json rows = nlohmann::json::array();
  for (auto& a : acc)
    rows.push_back({{"op", a.op},
                    {"operator", a.variant},
                    {"count", a.count},
                    {"exact", a.exact},
                    {"bits", a.bits},
                    {"seed_theory", a.seed_theory},
                    {"seed_measured_7800gtx", a.seed_measured}});
  return rows;
}

nlohmann::json rounding_json(const std::vector<floatlab::RoundingRow>& rows) {
  nlohmann::json j = nlohmann::json::array();
  for (auto& r : rows)
    j.push_back({{"op", r.op},
                 {"domain", r.domain},
                 {"count", r.count},
                 {"max_ulp", r.max_ulp},
                 {"correctly_rounded", r.correctly_rounded},
                 {"vulkan_bound", r.vulkan_bound},
                 {"within_bound", r.within_bound}});
  return j;
}

nlohmann::json controls_json(const floatlab::FloatControls& c) {
  return {{"denorm_preserve_f32", c.denorm_preserve32},
          {"denorm_flush_to_zero_f32", c.denorm_flush32},
          {"rounding_rte_f32", c.rte32},
          {"rounding_rtz_f32", c.rtz32},
          {"denorm_preserve_f16", c.denorm_preserve16},
          {"denorm_preserve_f64", c.denorm_preserve64},
          {"signed_zero_inf_nan_preserve_f32", c.signed_zero_inf_nan_preserve32},
          {"denorm_behavior_independence", c.denorm_independence},
          {"rounding_mode_independence", c.rounding_independence}};
}

nlohmann::json report_json(const floatlab::Report& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (auto& row : r.rows)
    rows.push_back({{"test", row.test},
                    {"question", row.question},
                    {"found", row.found},
                    {"ieee", row.ieee},
                    {"as_ieee", row.as_ieee},
                    {"seed_7800gtx", row.seed_7800gtx},
                    {"seed_rx1800xl", row.seed_rx1800xl}});
  return {{"device", r.device},
          {"rows", rows},
          {"test1_changes", r.test1_changed},
          {"test4",
           {{"count", r.test4_count},
            {"exact_fma", r.test4_exact_fma},
            {"exact_contract_allowed", r.test4_exact_contract},
            {"exact_no_contraction", r.test4_exact_precise}}},
          {"test8",
           {{"count", r.test8_count}, {"mismatches", r.test8_mismatch}, {"mean_error_ulp", r.test8_mean_error_ulp}}},
          {"test9", {{"count", r.test9_count}, {"violations", r.test9_violations}}}};
}

nlohmann::json report_parts_json(const ReportParts& r) {
  auto j = report_json(r.report);
  j["floatfloat_accuracy"] = accuracy_json(r.accuracy);
  j["rounding"] = rounding_json(r.rounding);
  j["float_controls"] = controls_json(r.controls);
  j["paranoia"] = paranoia_json(r.paranoia);
  j["stages"] = stage_table_json(r.stages);
  j["table31"] = table31_json(r.table31);
  j["table31_division"] = division_json(r.division);
  j["float_controls_tested"] = controls_test_json(r.promises, r.contraction);
  if (r.test9)
    j["test9_full"] = {
        {"pairs", r.test9->done()}, {"violations", r.test9->violations()}, {"examples", r.test9->examples()}};
  if (r.ulp_cancellation) j["simsurf_ulp_and_cancellation"] = ulp_cancellation_json(*r.ulp_cancellation);
  if (r.denormals && !r.denormals->rows.empty()) j["simsurf_denormals"] = denormals_json(*r.denormals);
  if (r.towards_zero) j["towards_zero"] = chopped_json(*r.towards_zero);
  return j;
}

namespace {

void print_accuracy(const std::vector<floatlab::FfAccuracy>& acc) {
  std::printf("\nfloat-float operators against MPFR (Da Graça 2006, ch. 4, table 4.1), %llu random inputs each\n",
              acc.empty() ? 0ull : (unsigned long long)acc[0].count);
  std::printf("%-15s %-13s %-14s %-24s %s\n", "operator", "bits (worst)", "report theory", "report measured (7800GTX)",
              "whose");
  for (auto& a : acc)
    std::printf("%-15s %-13s %-14s %-24s %s\n", a.op.c_str(),
                a.exact ? "exact" : std::to_string(a.bits).substr(0, 5).c_str(), a.seed_theory.c_str(),
                a.seed_measured.c_str(), a.variant.c_str());
  std::printf(
      "(the report's figures stand beside its own operators only; bits = -log2(|error| / (|a| + |b|)) for the "
      "additions, / |exact| for the others, worst over the inputs)\n");
}

void print_rounding(const std::vector<floatlab::RoundingRow>& rows, const floatlab::FloatControls& c) {
  std::printf("\nbeyond Da Graça 2006: division and built-ins against double precision\n");
  std::printf("%-12s %-30s %10s %12s  %-22s %s\n", "op", "inputs", "max ulp", "exact share", "Vulkan allows", "within");
  for (auto& r : rows)
    std::printf("%-12s %-30s %10.3f %11.2f%%  %-22s %s\n", r.op.c_str(), r.domain.c_str(), r.max_ulp,
                100 * r.correctly_rounded, r.vulkan_bound.c_str(), r.within_bound ? "yes" : "NO");
  std::printf(
      "float controls: f32 denormals can be preserved %s, flushed %s; rounding RTE %s RTZ %s; "
      "independence: denormals %s, rounding %s\n",
      c.denorm_preserve32 ? "yes" : "no", c.denorm_flush32 ? "yes" : "no", c.rte32 ? "yes" : "no",
      c.rtz32 ? "yes" : "no", c.denorm_independence.c_str(), c.rounding_independence.c_str());
}

void print_report(const floatlab::Report& r) {
  std::printf("float probes on %s (Da Graça 2006, ch. 3)\n", r.device.c_str());
  std::printf("%-12s %-48s %-22s %-16s %-5s %-26s %s\n", "test", "question", "found", "IEEE RN", "same",
              "7800GTX (2006)", "RX1800XL (2006)");
  for (auto& row : r.rows)
    std::printf("%-12s %-48s %-22s %-16s %-5s %-26s %s\n", row.test.c_str(), row.question.c_str(), row.found.c_str(),
                row.ieee.c_str(), row.as_ieee ? "yes" : "NO", row.seed_7800gtx.c_str(), row.seed_rx1800xl.c_str());
  for (auto& c : r.test1_changed) std::printf("  TEST 1 change: %s\n", c.c_str());
}

}  // namespace

int run_float_report(const Options& o) {
  gpu::Context ctx(context_options(o));
  // Each part's time on stderr, as it ends: where a user waits.
  auto last = std::chrono::steady_clock::now();
  auto done = [&](const char* part) {
    auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "report: %s in %.1f s\n", part, std::chrono::duration<double>(now - last).count());
    last = now;
  };
  floatlab::Probes probes(ctx);
  auto report = probes.report();
  print_report(report);
  done("the probes");
  auto accuracy = floatlab::FloatFloat(ctx).accuracy(o.quick ? 1u << 14 : 1u << 20, 1);
  print_accuracy(accuracy);
  done("the float-float operators' accuracy");
  auto towards_zero = floatlab::chopped_arithmetic(ctx, o.quick ? 1u << 12 : 1u << 18);
  print_chopped(towards_zero);
  done("rounding towards zero");
  auto rounding = probes.rounding(o.quick ? 1u << 14 : 1u << 20);
  auto controls = floatlab::float_controls(ctx);
  print_rounding(rounding, controls);
  done("rounding and float controls");
  // table 3.1 at 5e6 inputs an operation and domain (our choice: the report gives no count); progress on stderr
  const uint32_t t31 = o.quick ? 1u << 14 : 5'000'000;
  auto table31 = floatlab::error_ranges(probes, t31, 1, [](const floatlab::ErrorRange& r) {
    std::fprintf(stderr, "3.1: %s, %s: %llu inputs\n", r.op.c_str(), r.domain.c_str(), (unsigned long long)r.count);
  });
  done("table 3.1");
  auto division = floatlab::division_reading(probes, t31, 1);
  print_table31(table31, division);
  done("division");
  auto promises = floatlab::test_float_controls(ctx);
  auto contraction = floatlab::test_contraction(ctx, o.quick ? 1u << 12 : 1u << 18);
  print_controls(promises, contraction);
  done("float controls and contraction");
  auto stages = stage_table(ctx, o.quick ? 1u << 12 : 1u << 20);
  print_stage_table(stages);
  done("the stages");
  auto paranoia = paranoia_stages(ctx, o.quick ? 1u << 12 : 1u << 18);
  print_paranoia(paranoia);
  done("Paranoia");
  // TEST 9 at the report's two billion pairs, progress on stderr
  floatlab::SignSymmetry t9(ctx);
  const uint64_t pairs = o.quick ? 1ull << 24 : floatlab::kTest9Pairs;
  while (t9.done() < pairs) {
    t9.run(std::min<uint64_t>(pairs - t9.done(), 1ull << 28));
    std::fprintf(stderr, "TEST 9: %llu of %llu pairs, %llu violations\n", (unsigned long long)t9.done(),
                 (unsigned long long)pairs, (unsigned long long)t9.violations());
  }
  std::printf(
      "\nTEST 9 at the report's size (two billion pairs; --quick: 2^24): A*B = (-A)*(-B) = -(A*(-B)), "
      "(-A)*B = A*(-B) on %llu random pairs (bit patterns drawn on the GPU): %llu violations (the report, "
      "2006: none on the 7800 GTX and the RX1800XL)\n",
      (unsigned long long)t9.done(), (unsigned long long)t9.violations());
  done("TEST 9");
  auto simsurf = floatlab::ulp_and_cancellation(ctx);  // Abecassis 2012 §14.2.2 / §14.5.1: a few operations
  print_ulp_cancellation(simsurf);
  done("ULPs and cancellation");
  auto denormals = floatlab::denormal_penalty(ctx, o.quick ? 1u << 12 : 1u << 16);  // Abecassis 2012 §14.3.2
  print_denormals(denormals);
  done("denormals");
  if (!o.out.empty()) {
    auto j = report_parts_json({report, accuracy, rounding, controls, paranoia, stages, table31, division, promises,
                                contraction, &t9, &simsurf, &denormals, &towards_zero});
    io::write_file(o.out, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    std::printf("wrote %s\n", o.out.c_str());
  }
  report_validation(o, ctx);
  return 0;
}
