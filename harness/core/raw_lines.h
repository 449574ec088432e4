// RawLines: a probe's output as a stream of lines (line_source.h), whether it is held as text
// or, for a large output, refers to a file (RawOutput::file), which is then read in chunks of
// kRawChunkBytes and never held whole. Contract: the error names the file and why it cannot
// be opened; a text source refers to out.text, so `out` must outlive it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "harness/core/probe.h"
#include "harness/util/line_source.h"
#include "harness/util/result.h"

namespace gpuconform {

inline constexpr std::size_t kRawChunkBytes = 1 << 20;

Result<std::unique_ptr<LineSource>> RawLines(const RawOutput& out);

// The streamed twin of UsableText (raw_text.h): the output's lines, or why there are none,
// naming the node and the snapshot file.
Result<std::unique_ptr<LineSource>> UsableLines(const RawOutput& out, const std::string& node, const std::string& file,
                                                const std::string& missing_tool);

// The lines of the file at `path`, read `chunk_bytes` at a time.
Result<std::unique_ptr<LineSource>> FileLines(const std::string& path, std::size_t chunk_bytes = kRawChunkBytes);

}  // namespace gpuconform
