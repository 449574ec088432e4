// Parse of checkpoint.txt, the Checkpoint probe's output on one node, in record lines
// (harness/util/record_lines.h). The first record is `checkpoint-probe version=1 node=<host>`. Records (fields in brackets are
// optional): target(path, origin, fs, run_dir), error(stage, problem), swept(dir),
// shared(sees_token, [problem]), skipped(reason), temp(path, fs, [target_fs], same_device,
// rename = ok|EXDEV|failed|not-tried, [problem]), capacity(avail_bytes, total_bytes |
// problem), publish(role=writer: versions, bytes, elapsed_ms | role=reader: reads, complete,
// missing, torn, last_version, expected_last_version), publish-torn(state, size, problem),
// kill(mode, index, phase, [delay_us], [problem]), verify(mode, index, state =
// complete|torn|missing|unreadable, [version], [size], [problem]), leftover(mode, index,
// file, bytes), visible(trial, role=writer: published_ms | role=reader: seen_ms =
// <ms>|timeout), writers(guard = none|rank0, ranks, state, ...), read(readers, bytes,
// elapsed_ms), cleanup(removed, [problem]).
// Contract: pure; a malformed line is an error naming origin:line.
#pragma once

#include <string>
#include <vector>

#include "harness/util/record_lines.h"
#include "harness/util/result.h"

namespace gpuconform::checkpoint {

struct NodeCheckpointReport {
  std::string node;
  std::string origin;  // for messages
  std::vector<RecordLine> records;

  std::vector<const RecordLine*> All(const std::string& name) const;
  const RecordLine* First(const std::string& name) const;
};

Result<NodeCheckpointReport> ParseCheckpointReport(const std::string& text, const std::string& node,
                                                   const std::string& origin);

}  // namespace gpuconform::checkpoint
