#include "compute/measure/kernel_statistics.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace gpu {

namespace {
std::string lower_case(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

double statistic_value(const VkPipelineExecutableStatisticKHR& s) {
  switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
      return s.value.b32;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      return double(s.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      return double(s.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
      return s.value.f64;
    default:
      return 0;
  }
}

std::string workgroup_text(const KernelReport& k) {
  return std::to_string(k.local_x) + "x" + std::to_string(k.local_y) + "x" + std::to_string(k.local_z);
}
}  // namespace

std::string kernel_statistics_missing(const Context& ctx) {
  if (ctx.pipeline_statistics) return "";
  return "this driver (" + ctx.info.driver +
         ") does not give its pipelines' statistics (VK_KHR_pipeline_executable_properties), so the registers a "
         "thread are not known here; the occupancy rules still apply to counts you give";
}

void read_resources(KernelReport& k) {
  for (auto& s : k.statistics) {
    std::string n = lower_case(s.name);
    bool scalar = n.find("sgpr") != std::string::npos || n.find("scalar") != std::string::npos;
    bool spilled = n.find("spill") != std::string::npos || n.find("local memory") != std::string::npos;
    if (!k.registers && !scalar && !spilled &&
        (n.find("register") != std::string::npos || n.find("vgpr") != std::string::npos || n == "gprs"))
      k.registers = uint32_t(s.value);
    if (!k.shared_bytes && (n.find("shared") != std::string::npos || n.find("lds") != std::string::npos))
      k.shared_bytes = uint32_t(s.value);
  }
}

std::vector<KernelReport> kernel_statistics(const Context& ctx) {
  std::vector<KernelReport> out;
  if (!ctx.pipeline_statistics) return out;
  Multiprocessor mp;
  bool known = multiprocessor_of(ctx.info.name, mp);
  std::map<VkPipeline, Context::PipelineRecord> pipelines;
  {
    std::lock_guard lock(ctx.pipelines_mutex);
    pipelines = ctx.pipelines;
  }
  for (auto& [pipeline, record] : pipelines) {
    KernelReport k;
    k.shader = record.shader;
    k.local_x = record.local_x, k.local_y = record.local_y, k.local_z = record.local_z;
    VkPipelineInfoKHR pi{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pi.pipeline = pipeline;
    uint32_t executables = 0;
    VK_CHECK(vkGetPipelineExecutablePropertiesKHR(ctx.device, &pi, &executables, nullptr));
    for (uint32_t e = 0; e < executables; ++e) {
      VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
      ei.pipeline = pipeline;
      ei.executableIndex = e;
      uint32_t count = 0;
      VK_CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device, &ei, &count, nullptr));
      std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
      VK_CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device, &ei, &count, stats.data()));
      for (uint32_t i = 0; i < count; ++i)
        k.statistics.push_back({stats[i].name, stats[i].description, statistic_value(stats[i])});
    }
    read_resources(k);
    if (known && k.registers) {
      k.occupancy = occupancy(mp, k.threads(), *k.registers, k.shared_bytes.value_or(0));
      k.best_threads = best_threads(mp, *k.registers, k.shared_bytes.value_or(0));
    }
    out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.shader < b.shader; });
  return out;
}

std::string format_kernel_statistics(const Context& ctx, const std::vector<KernelReport>& kernels) {
  std::ostringstream out;
  if (auto why = kernel_statistics_missing(ctx); !why.empty()) return why + ".\n";
  Multiprocessor mp;
  bool known = multiprocessor_of(ctx.info.name, mp);
  out << "kernels of this run on " << ctx.info.name << " ("
      << (known ? mp.name : "occupancy rules unknown for this device") << "):\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-44s %-10s %9s %10s %9s  %-18s %s\n", "shader", "workgroup", "registers",
                "shared B", "occupancy", "bound by", "best workgroup sizes (12.7)");
  out << line;
  for (auto& k : kernels) {
    std::string best;
    for (size_t i = 0; i < k.best_threads.size() && i < 6; ++i)
      best += (i ? ", " : "") + std::to_string(k.best_threads[i]);
    if (k.best_threads.size() > 6) best += ", ...";
    std::snprintf(line, sizeof line, "  %-44s %-10s %9s %10s %9s  %-18s %s\n", k.shader.c_str(),
                  workgroup_text(k).c_str(), k.registers ? std::to_string(*k.registers).c_str() : "-",
                  k.shared_bytes ? std::to_string(*k.shared_bytes).c_str() : "-",
                  k.occupancy ? (std::to_string(int(k.occupancy->occupancy * 100 + 0.5)) + " %").c_str() : "-",
                  k.occupancy ? limit_name(k.occupancy->limit) : "-", best.c_str());
    out << line;
  }
  out << "the driver's statistics:\n";
  for (auto& k : kernels) {
    out << "  " << k.shader << ":";
    for (auto& s : k.statistics) out << " " << s.name << " " << s.value << ";";
    out << "\n";
  }
  return out.str();
}

nlohmann::json kernel_statistics_json(const Context& ctx, const std::vector<KernelReport>& kernels) {
  nlohmann::json j;
  j["device"] = ctx.info.name;
  j["driver"] = ctx.info.driver;
  Multiprocessor mp;
  if (multiprocessor_of(ctx.info.name, mp)) j["multiprocessor"] = mp.name;
  if (auto why = kernel_statistics_missing(ctx); !why.empty()) j["missing"] = why;
  j["kernels"] = nlohmann::json::array();
  for (auto& k : kernels) {
    nlohmann::json r;
    r["shader"] = k.shader;
    r["workgroup"] = {k.local_x, k.local_y, k.local_z};
    if (k.registers) r["registers"] = *k.registers;
    if (k.shared_bytes) r["shared_bytes"] = *k.shared_bytes;
    if (k.occupancy) {
      r["occupancy"] = k.occupancy->occupancy;
      r["blocks"] = k.occupancy->blocks;
      r["bound_by"] = limit_name(k.occupancy->limit);
      r["best_workgroup_sizes"] = k.best_threads;
    }
    for (auto& s : k.statistics) r["statistics"][s.name] = s.value;
    j["kernels"].push_back(r);
  }
  return j;
}

}  // namespace gpu
