// The report sinks of the writers in this folder, one per output a verb's command line asks
// for (results/report_sink.h): each writes its file from the Run and says where it went, in
// the words the terminal has always printed ("JUnit report: FILE").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "results/metrics.h"
#include "results/report_sink.h"

namespace gpuconform {

std::unique_ptr<ReportSink> JunitFileSink(std::string path);
// One Surefire-style TEST-<suite>.xml per suite in DIR.
std::unique_ptr<ReportSink> JunitDirSink(std::string dir);
std::unique_ptr<ReportSink> ResultsJsonSink(std::string path);
std::unique_ptr<ReportSink> PrometheusSink(std::string dir);
// From a history, each metric's trend over the last runs (empty: none).
std::unique_ptr<ReportSink> HtmlSink(std::string path, std::vector<MetricTrend> trends = {});
std::unique_ptr<ReportSink> MarkdownSummarySink(std::string path);

}  // namespace gpuconform
