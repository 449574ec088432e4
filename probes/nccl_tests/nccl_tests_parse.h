// Parsers for nccl-tests all_reduce_perf results, as operators keep them: the text table
// (stdout) and the -J JSON file. Pure: text in, BandwidthTables out, or an error naming
// origin:line.
// Text: accepts rank prefixes ("0: ", "[1,0]<stdout>:"), leading indentation, shell prompts,
// command lines and NCCL log lines around the table, "..." elisions, N/A in #wrong (-c 0),
// out-of-place-only rows (9 columns) and out-of-place + in-place rows (13 columns, and
// trailing timestamp columns). "#  Rank N ... on HOST device ..." lines give ranks and nodes;
// without them both stay 0. A new header, a "# nThread" line or a size that does not ascend
// starts a new run. Rows keep the out-of-place figures; #wrong counts both halves.
// JSON: the document nccl-tests' src/util.cu writes (version 2: config.devices, results[]
// with out_of_place / in_place {time, alg_bw, bus_bw, nwrong}, average_bus_bandwidth).
// Never crashes on any bytes; "# Avg bus bandwidth" is kept for the report, never judged.
// The text is read in one pass over a LineSource; the run to judge keeps only the runs it may
// choose, so the output of a long sweep of many runs is never in memory whole.
#pragma once

#include <string>
#include <vector>

#include "harness/util/line_source.h"
#include "harness/util/result.h"
#include "probes/nccl_tests/bandwidth_table.h"

namespace gpuconform::nccl_tests {

// Every run in the text, in file order; an error when there is none or a row inside a
// table is malformed.
Result<std::vector<BandwidthTable>> ParseNcclTestsRuns(const std::string& text, const std::string& origin);

// Which tables a text may hold. kAllreduce refuses a row with redop "none" (all_gather_perf or
// alltoall_perf output given where an allreduce is judged); kAnyCollective takes it, for a table
// whose collective the caller already knows (gpuconform's own tables of the collectives beyond
// allreduce, probes/mpi_sweep/collective_tables.h).
enum class RowsOf { kAllreduce, kAnyCollective };

// The run to judge: the last one that reached the tool's closing summary, or the last
// run when none did (excerpts often drop the summary).
Result<BandwidthTable> ParseNcclTestsOutput(LineSource& lines, const std::string& origin);
Result<BandwidthTable> ParseNcclTestsOutput(const std::string& text, const std::string& origin,
                                            RowsOf rows = RowsOf::kAllreduce);

// The -J JSON file of one nccl-tests run.
Result<BandwidthTable> ParseNcclTestsJson(const std::string& text, const std::string& origin);

// Ranks implied by busbw / algbw = 2(n-1)/n at the largest size (nccl-tests' allreduce
// factor); 0 when the row is too small to tell. For messages when no "# Rank" lines exist.
int RanksImpliedByBusbw(const BandwidthTable& table);

}  // namespace gpuconform::nccl_tests
