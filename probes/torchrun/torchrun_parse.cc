#include "probes/torchrun/torchrun_parse.h"

#include <algorithm>
#include <regex>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/resource_limits/node_limits.h"

namespace gpuconform::torchrun {

namespace {

// Integer fields: absent keeps the default; a value that is not a number is an error.
class Reader {
 public:
  Reader(const RecordLine& record, const std::string& origin) : record_(record), origin_(origin) {}

  bool Int(const std::string& key, int& into) {
    long long value = into;
    if (!Long(key, value)) return false;
    into = static_cast<int>(std::clamp<long long>(value, -1, 1LL << 30));
    return true;
  }
  bool Long(const std::string& key, long long& into) {
    const auto value = IntegerField(record_, key, origin_);
    if (!value) {
      error_ = value.error();
      return false;
    }
    if (*value) into = **value;
    return true;
  }
  bool Number(const std::string& key, double& into) {
    const auto value = NumberField(record_, key, origin_);
    if (!value) {
      error_ = value.error();
      return false;
    }
    if (*value) into = **value;
    return true;
  }
  const std::string& error() const { return error_; }

 private:
  const RecordLine& record_;
  const std::string& origin_;
  std::string error_;
};

Result<std::vector<int>> Indices(const RecordLine& record, const std::string& origin) {
  std::vector<int> indices;
  const std::string text = record.Get("indices");
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const auto value = WholeInteger(std::string_view(text).substr(start, comma - start));
    if (!value || *value < 0 || *value > (1LL << 30)) {
      return ErrorAt(origin, record.line, "indices: expected comma-separated non-negative integers");
    }
    indices.push_back(static_cast<int>(*value));
    start = comma + 1;
  }
  return indices;
}

WorkerReport& WorkerOf(NodeTorchrunReport& report, int task_rank, int rank) {
  for (auto& worker : report.workers) {
    if (worker.task_rank == task_rank && worker.rank == rank) return worker;
  }
  WorkerReport worker;
  worker.task_rank = task_rank;
  worker.rank = rank;
  report.workers.push_back(worker);
  return report.workers.back();
}

// One worker record into its report; false (with `error`) when a field is malformed.
bool AddWorkerRecord(WorkerReport& worker, const RecordLine& record, const std::string& kind,
                     const std::string& origin, std::string& error) {
  Reader read(record, origin);
  bool ok = true;
  if (kind == "start") {
    worker.started = true;
    worker.python_version = record.Get("python");
  } else if (kind == "worker") {
    worker.described = true;
    ok = read.Int("local_rank", worker.local_rank) && read.Int("world_size", worker.world_size) &&
         read.Int("local_world_size", worker.local_world_size) && read.Int("group_rank", worker.group_rank);
    worker.host = record.Get("host");
    worker.slurm_nodeid = record.Get("slurm_nodeid");
    worker.slurm_procid = record.Get("slurm_procid");
    worker.cuda_visible_devices = record.Get("cuda_visible_devices");
    worker.torch_version = record.Get("torch");
    worker.python_version = record.Get("python");
    worker.backend = record.Get("backend");
    worker.device = record.Get("device");
    worker.device_uuid = record.Get("device_uuid");
  } else if (kind == "init") {
    worker.init_ok = record.Get("ok") == "1";
    worker.init_error = record.Get("error");
    ok = read.Number("ms", worker.init_ms);
  } else if (kind == "allreduce") {
    AllreduceSample sample;
    ok = read.Long("size_bytes", sample.size_bytes) && read.Number("expected", sample.expected) &&
         read.Number("got", sample.got) && read.Long("wrong_elements", sample.wrong_elements) &&
         read.Number("seconds", sample.seconds) && read.Number("busbw_gb_per_s", sample.busbw_gb_per_s);
    worker.allreduces.push_back(sample);
  } else if (kind == "shard") {
    int epoch = 0;
    ok = read.Int("epoch", epoch) && read.Int("items", worker.dataset_items);
    if (ok) {
      auto indices = Indices(record, origin);
      if (!indices) {
        error = indices.error();
        return false;
      }
      worker.shard_indices[epoch] = std::move(*indices);
    }
  } else if (kind == "dataload") {
    int workers = 0;
    double mb_per_s = 0;
    ok = read.Int("num_workers", workers) && read.Number("mb_per_s", mb_per_s);
    worker.dataload_mb_per_s[workers] = mb_per_s;
  } else if (kind == "checkpoint") {
    CheckpointRecord& checkpoint = worker.checkpoint;
    checkpoint.present = true;
    checkpoint.wrote = record.Get("wrote") == "1";
    checkpoint.consistent = record.Get("consistent") == "1";
    checkpoint.mode = record.Get("mode");
    checkpoint.error = record.Get("error");
    ok = read.Long("step", checkpoint.step);
    if (ok && !record.Get("loaded_step").empty()) {
      long long loaded = 0;
      ok = read.Long("loaded_step", loaded);
      checkpoint.loaded_step = loaded;
    }
  } else if (kind == "transport") {
    worker.transport_lines.push_back(record.Get("line"));
  } else if (kind == "error") {
    worker.errors.emplace_back(record.Get("stage"), record.Get("message"));
  } else if (kind == "done") {
    worker.done = true;
  }
  // Other kinds are from a newer worker: kept out, not an error.
  if (!ok) error = read.error();
  return ok;
}

}  // namespace

Result<NodeTorchrunReport> ParseTorchrunReport(const std::string& text, const std::string& node,
                                               const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  if (records->empty()) return ErrorAt(origin, 1, "empty Torchrun probe output");
  const RecordLine& first = records->front();
  if (first.kind != "torchrun-probe" || first.Get("version") != "1") {
    return ErrorAt(origin, first.line,
                   "not a Torchrun probe output (expected 'torchrun-probe version=1' first), got a '" + first.kind +
                       "' record");
  }
  NodeTorchrunReport report;
  report.node = node;
  for (std::size_t i = 1; i < records->size(); ++i) {
    const RecordLine& record = (*records)[i];
    Reader read(record, origin);
    if (record.kind == "skipped") {
      report.skipped = record.Get("reason");
      if (report.skipped.empty()) report.skipped = "the Torchrun probe did not run";
    } else if (record.kind == "data") {
      report.data_dir = record.Get("dir");
      report.data_problem = record.Get("problem");
    } else if (record.kind == resource_limits::kLimitsRecord) {
      report.limits = resource_limits::LimitsFromRecord(record);
    } else if (record.kind == "port") {
      PortCheck port{record.Get("role"), record.Get("host"), record.Get("addr"), 0, record.Get("state"),
                     record.Get("detail")};
      if (!read.Int("port", port.port)) return Error{read.error()};
      report.ports.push_back(port);
    } else if (record.kind == "launcher") {
      LauncherRun launcher;
      if (!read.Int("task_rank", launcher.task_rank) || !read.Int("nnodes", launcher.nnodes) ||
          !read.Int("nproc_per_node", launcher.nproc_per_node) || !read.Int("node_rank", launcher.node_rank) ||
          !read.Int("master_port", launcher.master_port) || !read.Int("timeout_s", launcher.timeout_s) ||
          !read.Int("exit", launcher.exit_code) || !read.Number("elapsed_s", launcher.elapsed_s)) {
        return Error{read.error()};
      }
      launcher.host = record.Get("host");
      launcher.command = record.Get("command");
      launcher.command_origin = record.Get("command_origin");
      launcher.slurm_nodeid = record.Get("slurm_nodeid");
      launcher.master_addr = record.Get("master_addr");
      launcher.master_origin = record.Get("master_origin");
      launcher.master_host = record.Get("master_host");
      launcher.backend = record.Get("backend");
      launcher.state = record.Get("state");
      launcher.torch_version = record.Get("torch");
      launcher.python_version = record.Get("python");
      launcher.detail = record.Get("detail");
      if (launcher.state.empty()) return ErrorAt(origin, record.line, "a launcher record without state=");
      report.launchers.push_back(launcher);
    } else if (record.kind == "output") {
      int task_rank = -1;
      if (!read.Int("task_rank", task_rank)) return Error{read.error()};
      for (auto& launcher : report.launchers) {
        if (launcher.task_rank == task_rank) launcher.output.push_back(record.Get("line"));
      }
    } else if (record.kind == "unreadable" || record.kind.starts_with("w-")) {
      int task_rank = -1;
      int rank = -1;
      if (!read.Int("task_rank", task_rank) || !read.Int("rank", rank)) return Error{read.error()};
      WorkerReport& worker = WorkerOf(report, task_rank, rank);
      if (record.kind == "unreadable") {
        worker.unreadable = record.Get("problem");
        continue;
      }
      std::string error;
      if (!AddWorkerRecord(worker, record, record.kind.substr(2), origin, error)) return Error{error};
    }
  }
  return report;
}

std::string LastExceptionLine(const std::vector<std::string>& output) {
  // "AttributeError: ...", "torch.distributed.DistStoreError: ...", "RuntimeError: ...",
  // also behind a rank prefix ("[rank0]: ") as torch 2.x prints them.
  static const std::regex kException(R"(^(?:\[[^\]]*\]:?\s*)?((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception|Interrupt)(?::.*)?)$)");
  for (auto line = output.rbegin(); line != output.rend(); ++line) {
    const std::string trimmed(Trim(*line));
    std::smatch match;
    if (trimmed.size() < 2000 && std::regex_match(trimmed, match, kException)) return match[1].str();
  }
  return "";
}

}  // namespace gpuconform::torchrun
