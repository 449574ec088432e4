// Shared by the fuzz targets (fuzz/*_fuzz.cc): the input as text, and ways to touch what a
// parser returned so that reading every field runs under the sanitizers too. No target
// asserts anything a parser does not promise: returning (a value or an error) is a pass.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "harness/util/line_source.h"
#include "harness/util/result.h"

namespace gpuconform::fuzz {

inline constexpr char kOrigin[] = "fuzz-input";

// Host cap for the hostlist parsers under fuzzing. The production cap (100,000) is reached by
// the same code; at that size every input that nears it builds 100,000 strings and the fuzzer
// crawls at a few inputs a second, finding nothing the smaller cap would not.
inline constexpr std::size_t kMaxHosts = 500;

inline std::string AsText(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// The input as a streamed parser reads a file: lines split from chunks of 1 to 16 bytes (the
// input's first byte chooses), so the splitting of lines across chunks runs under the
// sanitizers too. The input must outlive the source.
inline ChunkLines AsChunkedLines(const std::uint8_t* data, std::size_t size) {
  const std::size_t chunk = size == 0 ? 1 : data[0] % 16 + 1;
  std::size_t at = 0;
  return ChunkLines(
      [data, size, chunk, at](char* buffer, std::size_t room) mutable -> long {
        const std::size_t n = std::min({chunk, room, size - at});
        if (n > 0) std::memcpy(buffer, data + at, n);
        at += n;
        return static_cast<long>(n);
      },
      chunk);
}

// Keeps a value alive, so the optimiser cannot drop the code that computed it.
template <typename T>
void Keep(const T& value) {
  asm volatile("" : : "r"(&value) : "memory");
}

// Hands the value to `touch`, or reads the error text (an error is a fine answer too).
template <typename T, typename Touch>
void Inspect(const Result<T>& result, Touch touch) {
  if (result) {
    touch(*result);
  } else {
    Keep(result.error().size());
  }
}

}  // namespace gpuconform::fuzz
