#include "results/report_sink.h"

namespace gpuconform {

bool WriteReports(const Run& run, const ReportSinks& sinks, std::ostream& out, std::ostream& err) {
  bool all_written = true;
  for (const auto& sink : sinks) {
    const Result<std::string> written = sink->Write(run);
    if (!written) {
      err << "gpuconform: " << written.error() << "\n";
      all_written = false;
    } else if (!written->empty()) {
      out << *written << "\n";
    }
  }
  return all_written;
}

}  // namespace gpuconform
