// The checkpoint file the Checkpoint suite writes and verifies: a file that proves its own
// completeness, so a reader can tell a complete checkpoint from a torn one without trusting
// anything but the bytes it read. Layout (little-endian 64-bit words):
//   header   "GPUCKPT1", version, writer, payload_bytes, chunk_bytes
//   payload  payload_bytes in chunks of chunk_bytes; each chunk starts with a tag
//            (version, writer, chunk index) and continues with words derived from that tag,
//            so a chunk left by another version or another writer is recognised as such
//   trailer  checksum of header and payload, then "GPUCKEND"
// Contract: pure. VerifyCheckpoint never trusts the header's sizes beyond the bytes present.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace gpuconform::checkpoint {

struct CheckpointSpec {
  std::uint64_t version = 0;
  std::uint32_t writer = 0;  // the rank that wrote it
  std::uint64_t payload_bytes = 0;  // rounded down to whole chunks
  std::uint64_t chunk_bytes = 64 * 1024;
};

// The whole file, ready to be written (in chunk_bytes pieces, so a kill can land mid-file).
std::string BuildCheckpoint(const CheckpointSpec& spec);
std::uint64_t CheckpointFileBytes(const CheckpointSpec& spec);
inline constexpr std::uint64_t kCheckpointHeaderBytes = 40;

struct CheckpointState {
  bool complete = false;
  std::uint64_t version = 0;  // from the header (meaningful when complete)
  std::uint32_t writer = 0;
  std::uint64_t size_bytes = 0;
  // Why the file is not a complete checkpoint, e.g. "3145728 of 4194368 bytes (truncated)" or
  // "mixed content: chunks from writers 0, 1, 2"; empty when complete.
  std::string problem;
};

CheckpointState VerifyCheckpoint(std::string_view bytes);

}  // namespace gpuconform::checkpoint
