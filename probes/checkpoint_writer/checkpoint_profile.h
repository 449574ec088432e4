// The profile's `checkpoint:` section, owned by the Checkpoint probe that reads it (and read by
// the Checkpoint suite, the Torchrun probe's data target and run's --checkpoint-dir): where
// training jobs write checkpoints, and what the Checkpoint suite asks of it. Absent: the suite
// is skipped unless the command line names the storage.
#pragma once

#include <string>

namespace gpuconform::checkpoint {

// Checkpoint storage: where training jobs write checkpoints, and what the Checkpoint suite
// asks of it. The suite works only inside its own run directory under `dir`.
struct CheckpointExpectation {
  static constexpr char kKey[] = "checkpoint";
  std::string dir;       // the shared target; empty = $SLURM_SUBMIT_DIR/checkpoints (or --checkpoint-dir)
  std::string temp_dir;  // where jobs put temporary files before the rename; empty = dir itself
  long long size_bytes = 0;  // one checkpoint of the model; 0 = capacity is recorded, not judged
  int copies_kept = 1;       // checkpoints kept; the next one is written beside them
  int torture_kills = 200;   // writer kills in the crash torture
  int negative_control_kills = 20;
  long long test_file_bytes = 4LL << 20;  // size of the suite's own checkpoint files
  int publish_versions = 50;              // versions published while readers poll
  int visibility_deadline_s = 10;         // a renamed file is visible everywhere within this
  int parallel_readers = 8;               // readers per node for the data-loading measurement
  long long read_bytes_per_reader = 64LL << 20;
  double read_floor_gb_per_s = 0;  // aggregate read floor with parallel_readers; 0 = recorded only
  std::string source;
};

}  // namespace gpuconform::checkpoint
