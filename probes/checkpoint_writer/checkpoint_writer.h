// Writing a checkpoint the two ways training code does: atomically (temporary file in the
// target directory, fsync, rename over the final path, fsync the directory — leveldb's
// publish sequence) or in place (open the final path with O_TRUNC and write: the pattern
// that tears on preemption). The Checkpoint suite runs the writer as a child process
// (`gpuconform __checkpoint-writer ...`) so it can SIGKILL it at any phase.
// Contract: I/O only here; a failure comes back as an Error naming the path and errno.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/util/result.h"
#include "probes/checkpoint_writer/checkpoint_format.h"

namespace gpuconform::checkpoint {

enum class WriteMode { kAtomic, kInPlace };

// The points a writer passes, in order. A torture run stops the writer at each of them
// and kills it there, so every phase is covered, not only the ones a random kill hits.
enum class WritePhase { kBeforeWrite, kMidWrite, kAfterFsync, kAfterRename, kDone };

const char* WriteModeName(WriteMode mode);    // "atomic", "in-place"
const char* WritePhaseName(WritePhase phase);  // "before-write", "mid-write", ...
bool ParseWritePhase(const std::string& name, WritePhase& phase);

struct WriteRequest {
  std::string dir;       // the directory holding the final path
  std::string name;      // final file name inside dir
  std::string temp_dir;  // where the atomic writer puts its temporary file; empty = dir
  CheckpointSpec spec;
  WriteMode mode = WriteMode::kAtomic;
  int pause_us_per_chunk = 0;  // slows the writer, so concurrent writers overlap
};

// The temporary file's name prefix: leftovers of killed writers are found by it.
inline constexpr char kTempPrefix[] = ".gpuconform-tmp-";

// Writes one checkpoint; calls on_phase as each phase is reached (it may block: the child
// waits there to be killed).
Result<bool> WriteCheckpoint(const WriteRequest& request, const std::function<void(WritePhase)>& on_phase);

// The hidden verb the suite starts as its writer child.
inline constexpr char kWriterVerb[] = "__checkpoint-writer";
// argv after the verb: --dir D --name N --version V --writer W --bytes B --mode atomic|in-place
// [--temp-dir T] [--stop-at PHASE]. Prints "phase <name>" lines; at --stop-at it waits to be
// killed. Exit 0 when written, 2 on a bad argument or an I/O error (printed as "error ...").
int CheckpointWriterMain(const std::vector<std::string>& args);

}  // namespace gpuconform::checkpoint
