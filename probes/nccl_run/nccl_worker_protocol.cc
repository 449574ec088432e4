#include "probes/nccl_run/nccl_worker_protocol.h"

#include <fmt/format.h>

#include <sstream>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/nccl_run/nccl_worker.h"

namespace gpuconform::nccl_run {

std::map<std::string, std::string> WorkerNcclEnvironment(const std::map<std::string, std::string>& user_nccl,
                                                          const std::string& work_dir) {
  std::map<std::string, std::string> env;
  const auto debug = user_nccl.find("NCCL_DEBUG");
  if (debug == user_nccl.end() || debug->second != "TRACE") env["NCCL_DEBUG"] = "INFO";
  env["NCCL_DEBUG_SUBSYS"] = "INIT,NET,GRAPH,ENV";
  env["NCCL_DEBUG_FILE"] = work_dir + "/" + kDebugLogName;
  env["NCCL_TOPO_DUMP_FILE"] = work_dir + "/" + kTopologyDumpName;
  return env;
}

IterationPlan PlanIterations(long long size_bytes) {
  constexpr long long kGiB = 1024LL * 1024 * 1024;
  if (size_bytes <= kGiB) return {5, 20};
  if (size_bytes <= 4 * kGiB) return {2, 10};
  return {1, 5};
}

std::string NcclVersionText(int code) {
  if (code >= 10000) return fmt::format("{}.{}.{}", code / 10000, code / 100 % 100, code % 100);
  return fmt::format("{}.{}.{}", code / 1000, code / 100 % 10, code % 100);
}

std::string CudaVersionText(int code) { return fmt::format("{}.{}", code / 1000, code % 1000 / 10); }

Result<WorkerReady> ParseWorkerReady(const std::string& lines, const std::string& host) {
  const std::string origin = host + ": the NCCL worker";
  auto records = ParseRecordLines(lines, origin);
  if (!records) return Error{records.error()};
  WorkerReady ready;
  ready.host = host;
  bool said = false;
  for (const auto& record : *records) {
    if (record.kind == "unavailable") {
      ready.reason = record.Get("reason");
      return ready;
    }
    if (record.kind == "error") return Error{host + ": " + record.Get("reason")};
    if (record.kind == "ready") {
      auto gpus = IntegerField(record, "gpus", origin);
      if (!gpus) return Error{gpus.error()};
      ready.available = true;
      ready.gpus = static_cast<int>(gpus->value_or(0));
      ready.nccl_version = record.Get("nccl_version");
      ready.cuda_runtime = record.Get("cuda_runtime");
      std::istringstream devices(record.Get("devices"));
      for (std::string bus_id; devices >> bus_id;) ready.bus_ids.push_back(bus_id);
      said = true;
    }
    if (record.kind == "unique-id") ready.unique_id_hex = record.Get("hex");
  }
  if (!said) return Error{origin + " said neither ready nor unavailable: " + (lines.empty() ? "no output" : lines)};
  return ready;
}

PlanOrProblem PlanRun(const std::vector<WorkerReady>& nodes) {
  PlanOrProblem result;
  std::string unavailable;
  int unavailable_count = 0;
  bool any_failed = false;
  RunPlan plan;
  for (const auto& node : nodes) {
    if (!node.available || node.gpus <= 0) {
      ++unavailable_count;
      any_failed = any_failed || node.failed;
      unavailable += (unavailable.empty() ? "" : "; ") + node.host + ": " +
                     (node.available ? "CUDA sees no GPU" : node.reason);
      continue;
    }
    plan.nodes.push_back({node.host, plan.nranks, node.gpus});
    plan.nranks += node.gpus;
  }
  if (unavailable_count > 0) {
    result.problem.all_unavailable = unavailable_count == static_cast<int>(nodes.size()) && !any_failed;
    result.problem.detail = result.problem.all_unavailable
                                ? "NCCL cannot run here: " + unavailable
                                : fmt::format("NCCL cannot run on {} of {} node(s), so the run across all nodes was "
                                              "not started: {}",
                                              unavailable_count, nodes.size(), unavailable);
    return result;
  }
  if (nodes.empty() || nodes.front().unique_id_hex.empty() || !FromHex(nodes.front().unique_id_hex) ||
      FromHex(nodes.front().unique_id_hex)->size() != 128) {
    result.problem.detail = (nodes.empty() ? std::string("no node") : nodes.front().host) +
                            ": the root NCCL worker gave no valid ncclUniqueId (128 bytes as hex)";
    return result;
  }
  plan.unique_id_hex = nodes.front().unique_id_hex;
  result.plan = plan;
  return result;
}

std::string InitLine(const RunPlan& plan, int first_rank) {
  return FormatRecord("init", {{"unique_id", plan.unique_id_hex},
                               {"nranks", std::to_string(plan.nranks)},
                               {"first_rank", std::to_string(first_rank)}});
}

std::string MeasureLine(long long size_bytes, const IterationPlan& iterations, const std::string& collective) {
  std::vector<std::pair<std::string, std::string>> fields = {{"size_bytes", std::to_string(size_bytes)},
                                                             {"warmup", std::to_string(iterations.warmup)},
                                                             {"iterations", std::to_string(iterations.iterations)}};
  if (!collective.empty() && collective != "allreduce") fields.push_back({"collective", collective});
  return FormatRecord("measure", fields);
}

Result<MeasureRequest> ParseMeasureLine(const std::string& line) {
  auto records = ParseRecordLines(line, "the parent");
  if (!records || records->size() != 1 || records->front().kind != "measure") {
    return Error{"malformed measure line from the parent"};
  }
  const RecordLine& record = records->front();
  const auto size_bytes = WholeInteger(record.Get("size_bytes"));
  const auto warmup = WholeInteger(record.Get("warmup"));
  const auto iterations = WholeInteger(record.Get("iterations"));
  if (!size_bytes || !warmup || !iterations || *size_bytes < 4 || *warmup < 0 || *iterations < 1) {
    return Error{"malformed measure line from the parent"};
  }
  MeasureRequest request;
  request.size_bytes = *size_bytes;
  request.iterations = {static_cast<int>(*warmup), static_cast<int>(*iterations)};
  const std::string collective = record.Get("collective");
  if (!collective.empty() && collective != "allreduce") {
    if (!allreduce_sweep::FindCollective(collective)) {
      return Error{"measure line names an unknown collective '" + collective + "' (known: allreduce, " +
                   allreduce_sweep::CollectiveNames() + ")"};
    }
    request.collective = collective;
  }
  return request;
}

std::string NotMeasuredLine(const std::string& collective, const std::string& reason) {
  return FormatRecord("not-measured", {{"collective", collective}, {"reason", reason}});
}

}  // namespace gpuconform::nccl_run
