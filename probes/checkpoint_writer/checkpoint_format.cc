#include "probes/checkpoint_writer/checkpoint_format.h"

#include <algorithm>

namespace gpuconform::checkpoint {

namespace {

constexpr std::uint64_t kMagic = 0x3154504B43555047ULL;     // "GPUCKPT1" as a little-endian word
constexpr std::uint64_t kEndMagic = 0x444E454B43555047ULL;  // "GPUCKEND"
constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;
constexpr std::uint64_t kTrailerBytes = 16;

std::uint64_t SplitMix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// version in the top 24 bits, writer in the next 16, chunk index in the low 24: enough for
// the suite's own files, and each part is recovered exactly for messages.
std::uint64_t ChunkTag(std::uint64_t version, std::uint32_t writer, std::uint64_t chunk) {
  return ((version & 0xffffffULL) << 40) | ((static_cast<std::uint64_t>(writer) & 0xffffULL) << 24) |
         (chunk & 0xffffffULL);
}

void PutWord(std::string& out, std::uint64_t word) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((word >> (8 * i)) & 0xff);
  out.append(bytes, 8);
}

std::uint64_t GetWord(std::string_view bytes, std::uint64_t offset) {
  std::uint64_t word = 0;
  for (int i = 7; i >= 0; --i) word = (word << 8) | static_cast<unsigned char>(bytes[offset + i]);
  return word;
}

std::uint64_t Checksum(std::string_view bytes, std::uint64_t length) {
  std::uint64_t hash = kFnvOffset;
  for (std::uint64_t offset = 0; offset + 8 <= length; offset += 8) hash = (hash ^ GetWord(bytes, offset)) * kFnvPrime;
  return hash;
}

std::uint64_t WholeChunks(const CheckpointSpec& spec) {
  const std::uint64_t chunk = spec.chunk_bytes < 16 ? 16 : spec.chunk_bytes / 8 * 8;
  return spec.payload_bytes / chunk;
}

std::uint64_t ChunkBytes(const CheckpointSpec& spec) { return spec.chunk_bytes < 16 ? 16 : spec.chunk_bytes / 8 * 8; }

std::string Describe(const std::set<std::uint64_t>& values) {
  std::string text;
  for (auto value : values) text += (text.empty() ? "" : ", ") + std::to_string(value);
  return text;
}

}  // namespace

std::uint64_t CheckpointFileBytes(const CheckpointSpec& spec) {
  return kCheckpointHeaderBytes + WholeChunks(spec) * ChunkBytes(spec) + kTrailerBytes;
}

std::string BuildCheckpoint(const CheckpointSpec& spec) {
  const std::uint64_t chunk_bytes = ChunkBytes(spec);
  const std::uint64_t chunks = WholeChunks(spec);
  std::string out;
  out.reserve(CheckpointFileBytes(spec));
  PutWord(out, kMagic);
  PutWord(out, spec.version);
  PutWord(out, spec.writer);
  PutWord(out, chunks * chunk_bytes);
  PutWord(out, chunk_bytes);
  for (std::uint64_t c = 0; c < chunks; ++c) {
    const std::uint64_t tag = ChunkTag(spec.version, spec.writer, c);
    PutWord(out, tag);
    for (std::uint64_t w = 1; w < chunk_bytes / 8; ++w) PutWord(out, SplitMix(tag * 0x10000ULL + w));
  }
  PutWord(out, Checksum(out, out.size()));
  PutWord(out, kEndMagic);
  return out;
}

CheckpointState VerifyCheckpoint(std::string_view bytes) {
  CheckpointState state;
  state.size_bytes = bytes.size();
  if (bytes.empty()) {
    state.problem = "empty file (0 bytes): truncated and not yet rewritten";
    return state;
  }
  if (bytes.size() < kCheckpointHeaderBytes) {
    state.problem = std::to_string(bytes.size()) + " bytes: shorter than the 40-byte header";
    return state;
  }
  if (GetWord(bytes, 0) != kMagic) {
    state.problem = "no checkpoint header (first 8 bytes are not the checkpoint magic)";
    return state;
  }
  state.version = GetWord(bytes, 8);
  state.writer = static_cast<std::uint32_t>(GetWord(bytes, 16));
  const std::uint64_t payload = GetWord(bytes, 24);
  const std::uint64_t chunk_bytes = GetWord(bytes, 32);
  if (chunk_bytes < 16 || chunk_bytes % 8 != 0 || payload % chunk_bytes != 0 || payload > (1ULL << 40)) {
    state.problem = "header is inconsistent (payload " + std::to_string(payload) + " B, chunk " +
                    std::to_string(chunk_bytes) + " B)";
    return state;
  }
  const std::uint64_t expected = kCheckpointHeaderBytes + payload + kTrailerBytes;
  // The chunks present tell whose data the file holds, even when it is short.
  std::set<std::uint64_t> versions;
  std::set<std::uint64_t> writers;
  const std::uint64_t present = std::min<std::uint64_t>(bytes.size(), kCheckpointHeaderBytes + payload);
  for (std::uint64_t offset = kCheckpointHeaderBytes; offset + 8 <= present; offset += chunk_bytes) {
    const std::uint64_t tag = GetWord(bytes, offset);
    versions.insert(tag >> 40);
    writers.insert((tag >> 24) & 0xffffULL);
  }
  if (writers.size() > 1) {
    state.problem = "mixed content: chunks from writers " + Describe(writers) + " (concurrent writers to one path)";
    return state;
  }
  if (versions.size() > 1) {
    state.problem = "mixed content: chunks of versions " + Describe(versions) + " (overwritten in place)";
    return state;
  }
  if (bytes.size() != expected) {
    state.problem = std::to_string(bytes.size()) + " of " + std::to_string(expected) + " bytes (" +
                    (bytes.size() < expected ? "truncated" : "longer than its header says") + ")";
    return state;
  }
  if (GetWord(bytes, expected - 8) != kEndMagic || GetWord(bytes, expected - 16) != Checksum(bytes, expected - 16)) {
    state.problem = "checksum mismatch: the bytes are not the ones written";
    return state;
  }
  state.complete = true;
  return state;
}

}  // namespace gpuconform::checkpoint
