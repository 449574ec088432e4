// The Checkpoint suite's active probe. Every rank calls it, in the same order, during the
// live gather; the lowest rank on each node does that node's reading, rank 0 writes.
// Stages, each ending in a sleeping barrier under a CollectiveDeadline:
//   setup       rank 0 makes the run directory gpuconform-run-<host>-<pid>-<nonce> under the
//               target (and removes run directories that killed runs on this host left);
//   shared      every node must see rank 0's token file, else the later stages are skipped;
//   temp        a rename from the jobs' temporary location into the target (EXDEV recorded);
//   capacity    statvfs of the target;
//   publish     rank 0 publishes versions atomically while every node polls and verifies;
//   torture     rank 0's writer child is SIGKILLed at each write phase and at random points;
//               after each kill every node verifies the final path and leftovers are listed;
//               then the same with the in-place writer (the negative control);
//   visibility  rank 0 renames a file into place; the other nodes time when they see it whole;
//   writers     every rank writes one path at once without the rank-0 guard, then rank 0 alone;
//   read        aggregate read bandwidth with 1 and with k readers per node, page cache dropped;
//   cleanup     rank 0 removes the run directory (a SIGTERM or SIGINT removes it too).
// Nothing outside the run directory is written, except one probe file in the temporary
// location when the profile names one (removed at once). Output: checkpoint.txt, whose
// records are described in checkpoint_parse.h.
#pragma once

#include <string>

#include "harness/core/probe.h"
#include "harness/core/profile.h"
#include "harness/world/gather.h"
#include "probes/checkpoint_writer/checkpoint_profile.h"

namespace gpuconform::checkpoint {

struct ProbeOptions {
  // False when neither the profile nor the command line names checkpoint storage: the
  // probe then does nothing (and the checks skip, saying so).
  bool configured = false;
  std::string target_dir;         // empty: no target (every node reports why)
  std::string target_origin;      // how the target was chosen, for messages
  std::string writer_executable;  // the gpuconform binary (its hidden writer verb)
  CheckpointExpectation expect;   // sizes and counts
  int stage_timeout_s = kDefaultCheckpointStageTimeoutS;  // a barrier not reached by then ends the run with a report
};

// Options for a live run: target from the run's checkpoint_dir (--checkpoint-dir, else
// GPUCONFORM_CHECKPOINT_DIR), the profile's checkpoint.dir, else
// $SLURM_SUBMIT_DIR/checkpoints when it exists; kills from the run's checkpoint_kills when
// positive, else the profile's (applied here: the profile is known only now); the writer is
// this executable.
ProbeOptions LiveProbeOptions(const Profile* profile, const RunOptions& run);

std::string RunCheckpointProbe(const CollectiveContext& context, const ProbeOptions& options);

// The ProbeSpec's collective: RunCheckpointProbe with LiveProbeOptions.
RawOutput ProbeCheckpoint(const CollectiveContext& context);

// nodes/<h>/checkpoint.txt: ProbeCheckpoint's output (checkpoint_writer_facts.h reads it).
const ProbeSpec& CheckpointProbe();

}  // namespace gpuconform::checkpoint
