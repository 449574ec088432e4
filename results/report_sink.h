// ReportSink: one output of a run (a JUnit file, the results document, the HTML report, the
// history database, the terminal, ...), written from the Run alone, in the way GoogleTest's
// event listeners each turn one result tree into their own output. A verb builds the sinks
// its command line asks for and writes them in order once the run is judged and acted on.
// Contract: a sink never changes the run; one that cannot write says why, and the others are
// still written (the verb then exits 2).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "harness/util/result.h"
#include "results/run.h"

namespace gpuconform {

class ReportSink {
 public:
  virtual ~ReportSink() = default;
  // Writes the report. Returns the line that says where it went ("JUnit report: out.xml"; empty
  // for the terminal, which is the output itself), or why it could not be written.
  virtual Result<std::string> Write(const Run& run) const = 0;
};

using ReportSinks = std::vector<std::unique_ptr<ReportSink>>;

// Writes every sink in order: where each report went to `out`, each failure to `err`
// ("gpuconform: ..."). Returns false when any sink could not write.
bool WriteReports(const Run& run, const ReportSinks& sinks, std::ostream& out, std::ostream& err);

}  // namespace gpuconform
