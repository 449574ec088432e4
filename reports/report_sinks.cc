#include "reports/report_sinks.h"

#include <functional>
#include <utility>

#include "harness/util/atomic_file.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_writer.h"
#include "reports/markdown_summary.h"
#include "reports/prometheus_textfile.h"

namespace gpuconform {

namespace {

// A sink that writes with one function and then names where the report went.
class WriterSink : public ReportSink {
 public:
  using Writer = std::function<Result<bool>(const Run&)>;
  WriterSink(Writer write, std::string where) : write_(std::move(write)), where_(std::move(where)) {}
  Result<std::string> Write(const Run& run) const override {
    const Result<bool> written = write_(run);
    if (!written) return Error{written.error()};
    return where_;
  }

 private:
  Writer write_;
  std::string where_;
};

}  // namespace

std::unique_ptr<ReportSink> JunitFileSink(std::string path) {
  return std::make_unique<WriterSink>([path](const Run& run) { return WriteJunitFile(path, run); },
                                      "JUnit report: " + path);
}

std::unique_ptr<ReportSink> JunitDirSink(std::string dir) {
  return std::make_unique<WriterSink>(
      [dir](const Run& run) -> Result<bool> {
        const Result<int> written = WriteJunitDir(dir, run);
        if (!written) return Error{written.error()};
        return true;
      },
      "JUnit reports (one per suite): " + dir);
}

std::unique_ptr<ReportSink> ResultsJsonSink(std::string path) {
  return std::make_unique<WriterSink>([path](const Run& run) { return WriteResultsJson(path, run); },
                                      "Results (JSON): " + path);
}

std::unique_ptr<ReportSink> PrometheusSink(std::string dir) {
  return std::make_unique<WriterSink>([dir](const Run& run) { return WritePrometheusTextfile(dir, run); },
                                      "Prometheus textfile: " + dir + "/" + kPrometheusTextfileName);
}

std::unique_ptr<ReportSink> HtmlSink(std::string path, std::vector<MetricTrend> trends) {
  return std::make_unique<WriterSink>(
      [path, trends = std::move(trends)](const Run& run) { return WriteHtmlReport(path, run, trends); },
      "HTML report: " + path);
}

std::unique_ptr<ReportSink> MarkdownSummarySink(std::string path) {
  return std::make_unique<WriterSink>(
      [path](const Run& run) { return WriteFileAtomically(path, RenderMarkdownSummary(run)); },
      "Summary (Markdown): " + path);
}

}  // namespace gpuconform
