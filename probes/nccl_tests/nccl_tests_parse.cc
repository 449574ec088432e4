#include "probes/nccl_tests/nccl_tests_parse.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <variant>

#include "harness/util/text_util.h"

namespace gpuconform::nccl_tests {

namespace {

constexpr char kTool[] = "nccl-tests all_reduce_perf";

std::optional<long long> WholeNumber(std::string_view word) {
  long long number = 0;
  const auto [stop, error] = std::from_chars(word.data(), word.data() + word.size(), number);
  if (error != std::errc() || stop != word.data() + word.size()) return std::nullopt;
  return number;
}

std::optional<double> FiniteNumber(std::string_view word) {
  double number = 0;
  const auto [stop, error] = std::from_chars(word.data(), word.data() + word.size(), number);
  if (error != std::errc() || stop != word.data() + word.size() || !std::isfinite(number)) return std::nullopt;
  return number;
}

// srun --label writes "0: ", mpirun --tag-output "[1,0]<stdout>:"; markdown copies indent.
std::string_view StripRankPrefix(std::string_view line) {
  line = Trim(line);
  if (StartsWith(line, "[")) {
    for (std::string_view tag : {"]<stdout>:", "]<stderr>:"}) {
      const std::size_t at = line.find(tag);
      if (at != std::string_view::npos && at < 24) return Trim(line.substr(at + tag.size()));
    }
  }
  std::size_t digits = 0;
  while (digits < line.size() && digits < 8 && line[digits] >= '0' && line[digits] <= '9') ++digits;
  if (digits > 0 && digits < line.size() && line[digits] == ':') return Trim(line.substr(digits + 1));
  return line;
}

std::vector<std::string_view> CommentWords(std::string_view content) {
  return SplitWords(content.substr(1));  // drop the '#'
}

bool IsTableHeader(const std::vector<std::string_view>& words) {
  return words.size() >= 4 && words[0] == "size" && words[1] == "count" && words[2] == "type";
}

int TimeColumns(const std::vector<std::string_view>& header_words) {
  int columns = 0;
  for (auto word : header_words) columns += (word == "time" || word == "cputime");
  return columns;
}

// "#  Rank  0 Group  0 Pid 6899 on hostA device 0 [0000:04:00] NVIDIA H100" (older
// releases omit "Group"): the rank number and its host.
struct DeviceLine {
  long long rank = 0;
  std::string host;
};
std::optional<DeviceLine> ParseDeviceLine(const std::vector<std::string_view>& words) {
  if (words.size() < 4 || words[0] != "Rank") return std::nullopt;
  const auto rank = WholeNumber(words[1]);
  if (!rank) return std::nullopt;
  for (std::size_t i = 2; i + 1 < words.size(); ++i) {
    if (words[i] == "on") return DeviceLine{*rank, std::string(words[i + 1])};
  }
  return std::nullopt;
}

// "# Avg bus bandwidth    : 156.742" -> 156.742
std::optional<double> ValueAfterColon(std::string_view content) {
  const std::size_t colon = content.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto words = SplitWords(content.substr(colon + 1));
  if (words.empty()) return std::nullopt;
  return FiniteNumber(words[0]);
}

// A line shaped like a result row: size, count, type, redop, root, then numbers.
bool LooksLikeRow(const std::vector<std::string_view>& words) {
  return words.size() >= 5 && WholeNumber(words[0]) && WholeNumber(words[1]) && !FiniteNumber(words[2]) &&
         !FiniteNumber(words[3]) && WholeNumber(words[4]);
}

struct Half {
  double time_us = 0;
  double algbw_gb_per_s = 0;
  double busbw_gb_per_s = 0;
  std::optional<double> wrong;  // nullopt: N/A
};

// One table row from the reported figures: the out-of-place half (or the only one) gives
// the times and bandwidths; #wrong adds up over both halves.
BandwidthRow RowFrom(long long size_bytes, const Half& primary, const std::optional<Half>& other) {
  BandwidthRow row;
  row.size_bytes = size_bytes;
  row.time_us = primary.time_us;
  row.algbw_gb_per_s = primary.algbw_gb_per_s;
  row.busbw_gb_per_s = primary.busbw_gb_per_s;
  row.checked = primary.wrong.has_value();
  const double wrong = primary.wrong.value_or(0) + (other ? other->wrong.value_or(0) : 0);
  row.wrong_elements = static_cast<long long>(std::min(wrong, 9e18));
  row.correct = row.wrong_elements == 0;
  return row;
}

std::optional<Half> ParseHalf(const std::vector<std::string_view>& words, std::size_t first, std::string& problem) {
  Half half;
  const auto time = FiniteNumber(words[first]);
  const auto algbw = FiniteNumber(words[first + 1]);
  const auto busbw = FiniteNumber(words[first + 2]);
  if (!time || !algbw || !busbw || *time < 0 || *algbw < 0 || *busbw < 0) {
    problem = "time, algbw and busbw must be non-negative numbers";
    return std::nullopt;
  }
  half.time_us = *time;
  half.algbw_gb_per_s = *algbw;
  half.busbw_gb_per_s = *busbw;
  if (words[first + 3] != "N/A") {
    half.wrong = FiniteNumber(words[first + 3]);
    if (!half.wrong || *half.wrong < 0 || *half.wrong > 9e18) {
      problem = "#wrong must be a count or N/A, got " + QuoteForMessage(words[first + 3]);
      return std::nullopt;
    }
  }
  return half;
}

std::optional<BandwidthRow> ParseRow(const std::vector<std::string_view>& words, bool in_place_columns,
                                     RowsOf rows, std::string& problem) {
  const std::size_t needed = in_place_columns ? 13 : 9;
  if (words.size() < needed) {
    problem = "expected " + std::to_string(needed) + " columns (size count type redop root time algbw busbw #wrong" +
              (in_place_columns ? " time algbw busbw #wrong" : "") + "), got " + std::to_string(words.size());
    return std::nullopt;
  }
  if (words[3] == "none" && rows == RowsOf::kAllreduce) {
    problem = "redop 'none': the table is not an allreduce (all_gather_perf or similar?)";
    return std::nullopt;
  }
  const auto size = WholeNumber(words[0]);
  if (!size || *size < 0) {
    problem = "size must be a byte count";
    return std::nullopt;
  }
  const auto out_of_place = ParseHalf(words, 5, problem);
  if (!out_of_place) return std::nullopt;
  std::optional<Half> in_place;
  if (in_place_columns) {
    in_place = ParseHalf(words, 9, problem);
    if (!in_place) return std::nullopt;
  }
  return RowFrom(*size, *out_of_place, in_place);
}

// A small JSON reader for the one document nccl-tests writes: values with the line they
// start on, so errors can name origin:line. Depth and size are bounded by the input.
struct JsonMember;  // one key and its value, defined once JsonValue is complete

struct JsonValue {
  using Array = std::vector<JsonValue>;
  // A vector may hold a type not yet complete, a pair may not (clang rejects
  // pair<string, JsonValue> here), hence the named JsonMember.
  using Object = std::vector<JsonMember>;
  std::variant<std::nullptr_t, bool, double, std::string, Array, Object> value;
  int line = 0;

  const JsonValue* Member(std::string_view key) const;
  std::optional<double> Number() const {
    const auto* number = std::get_if<double>(&value);
    return number ? std::optional<double>(*number) : std::nullopt;
  }
  bool IsNull() const { return std::holds_alternative<std::nullptr_t>(value); }
};

struct JsonMember {
  std::string name;
  JsonValue value;
};

const JsonValue* JsonValue::Member(std::string_view key) const {
  const auto* object = std::get_if<Object>(&value);
  if (!object) return nullptr;
  for (const auto& member : *object) {
    if (member.name == key) return &member.value;
  }
  return nullptr;
}

class JsonReader {
 public:
  JsonReader(std::string_view text, std::string origin) : text_(text), origin_(std::move(origin)) {}

  Result<JsonValue> ReadDocument() {
    auto value = ReadValue(0);
    if (!value) return value;
    SkipSpace();
    if (at_ != text_.size()) return Fail("unexpected text after the JSON document");
    return value;
  }

 private:
  static constexpr int kMaxDepth = 64;

  Error Fail(const std::string& message) const { return ErrorAt(origin_, line_, message); }

  void SkipSpace() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      if (text_[at_] == '\n') ++line_;
      ++at_;
    }
  }

  bool Consume(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  Result<JsonValue> ReadValue(int depth) {
    if (depth > kMaxDepth) return Fail("JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
    SkipSpace();
    JsonValue value;
    value.line = line_;
    if (at_ >= text_.size()) return Fail("the JSON document ends early (truncated file?)");
    const char first = text_[at_];
    if (first == '{') return ReadObject(depth, value);
    if (first == '[') return ReadArray(depth, value);
    if (first == '"') {
      auto text = ReadString();
      if (!text) return Error{text.error()};
      value.value = std::move(*text);
      return value;
    }
    if (Consume("null")) return value;
    if (Consume("true") || Consume("false")) {
      value.value = text_[at_ - 1] == 'e' && text_[at_ - 2] == 'u';
      return value;
    }
    return ReadNumber(value);
  }

  Result<JsonValue> ReadNumber(JsonValue& value) {
    const std::size_t start = at_;
    while (at_ < text_.size() && (std::string_view("+-.eE").find(text_[at_]) != std::string_view::npos ||
                                  (text_[at_] >= '0' && text_[at_] <= '9'))) {
      ++at_;
    }
    const auto number = FiniteNumber(text_.substr(start, at_ - start));
    if (!number) return Fail("expected a JSON value, got " + QuoteForMessage(text_.substr(start, 20)));
    value.value = *number;
    return value;
  }

  Result<std::string> ReadString() {
    ++at_;  // the opening quote
    std::string text;
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (c == '\n') return Fail("a JSON string runs past the end of its line");
      if (c == '\\') {
        if (at_ >= text_.size()) break;
        const char escaped = text_[at_++];
        static constexpr std::string_view kFrom = "nt\"\\/bfr";
        static constexpr std::string_view kTo = "\n\t\"\\/\b\f\r";
        const std::size_t which = kFrom.find(escaped);
        if (escaped == 'u' && at_ + 4 <= text_.size()) {
          at_ += 4;  // nccl-tests writes ASCII only; a \u escape keeps its place as '?'
          c = '?';
        } else if (which != std::string_view::npos) {
          c = kTo[which];
        } else {
          return Fail("bad escape in a JSON string");
        }
      }
      text.push_back(c);
    }
    if (at_ >= text_.size()) return Fail("the JSON document ends inside a string (truncated file?)");
    ++at_;  // the closing quote
    return text;
  }

  Result<JsonValue> ReadArray(int depth, JsonValue& value) {
    ++at_;
    JsonValue::Array items;
    SkipSpace();
    while (!Consume("]")) {
      auto item = ReadValue(depth + 1);
      if (!item) return item;
      items.push_back(std::move(*item));
      SkipSpace();
      if (text_.substr(at_, 1) != "]" && !Consume(",")) return Fail("expected ',' or ']' in a JSON list");
    }
    value.value = std::move(items);
    return value;
  }

  Result<JsonValue> ReadObject(int depth, JsonValue& value) {
    ++at_;
    JsonValue::Object members;
    SkipSpace();
    while (!Consume("}")) {
      SkipSpace();
      if (at_ >= text_.size() || text_[at_] != '"') return Fail("expected a quoted key in a JSON object");
      auto key = ReadString();
      if (!key) return Error{key.error()};
      SkipSpace();
      if (!Consume(":")) return Fail("expected ':' after the JSON key " + QuoteForMessage(*key));
      auto member = ReadValue(depth + 1);
      if (!member) return member;
      members.push_back(JsonMember{std::move(*key), std::move(*member)});
      SkipSpace();
      if (text_.substr(at_, 1) != "}" && !Consume(",")) return Fail("expected ',' or '}' in a JSON object");
    }
    value.value = std::move(members);
    return value;
  }

  std::string_view text_;
  std::string origin_;
  std::size_t at_ = 0;
  int line_ = 1;
};

// out_of_place / in_place: {"time" or "cpu_time", "alg_bw", "bus_bw", "nwrong": number|null}
std::optional<Half> JsonHalf(const JsonValue& half, std::string& problem) {
  const JsonValue* time = half.Member("time") ? half.Member("time") : half.Member("cpu_time");
  const JsonValue* algbw = half.Member("alg_bw");
  const JsonValue* busbw = half.Member("bus_bw");
  const JsonValue* wrong = half.Member("nwrong");
  if (!time || !algbw || !busbw || !time->Number() || !algbw->Number() || !busbw->Number() ||
      *time->Number() < 0 || *algbw->Number() < 0 || *busbw->Number() < 0) {
    problem = "time, alg_bw and bus_bw must be non-negative numbers (\"nan\" means the run failed)";
    return std::nullopt;
  }
  Half result{*time->Number(), *algbw->Number(), *busbw->Number(), std::nullopt};
  if (wrong && !wrong->IsNull()) {
    if (!wrong->Number() || *wrong->Number() < 0 || *wrong->Number() > 9e18) {
      problem = "nwrong must be a count or null";
      return std::nullopt;
    }
    result.wrong = wrong->Number();
  }
  return result;
}

std::optional<BandwidthRow> JsonRow(const JsonValue& result, std::string& problem) {
  const JsonValue* size = result.Member("size");
  if (!size || !size->Number() || *size->Number() < 0 || *size->Number() > 9e18) {
    problem = "a result without a byte 'size'";
    return std::nullopt;
  }
  const JsonValue* redop = result.Member("redop");
  if (redop && std::holds_alternative<std::string>(redop->value) && std::get<std::string>(redop->value) == "none") {
    problem = "redop 'none': the results are not an allreduce (all_gather_perf or similar?)";
    return std::nullopt;
  }
  const JsonValue* out_of_place = result.Member("out_of_place");
  const JsonValue* in_place = result.Member("in_place");
  const bool has_out_of_place = out_of_place && !out_of_place->IsNull();
  const bool has_in_place = in_place && !in_place->IsNull();
  // Trace replay writes out_of_place: null; then the in-place figures are all there is.
  const JsonValue* primary = has_out_of_place ? out_of_place : (has_in_place ? in_place : nullptr);
  if (!primary) {
    problem = "a result with neither out_of_place nor in_place figures";
    return std::nullopt;
  }
  const auto first = JsonHalf(*primary, problem);
  if (!first) return std::nullopt;
  std::optional<Half> second;
  if (has_out_of_place && has_in_place) {
    second = JsonHalf(*in_place, problem);
    if (!second) return std::nullopt;
  }
  return RowFrom(static_cast<long long>(*size->Number()), *first, second);
}

// Each devices[] entry is one process (its first rank); a process drives nthreads x ngpus ranks.
void ReadJsonDevices(const JsonValue& document, BandwidthTable& table) {
  const JsonValue* config = document.Member("config");
  if (!config) return;
  const JsonValue* devices = config->Member("devices");
  const auto* list = devices ? std::get_if<JsonValue::Array>(&devices->value) : nullptr;
  if (!list) return;
  std::set<std::string> hosts;
  for (const auto& device : *list) {
    const JsonValue* host = device.Member("hostname");
    if (host && std::holds_alternative<std::string>(host->value)) hosts.insert(std::get<std::string>(host->value));
  }
  auto per_process = [&](std::string_view key) {
    const JsonValue* value = config->Member(key);
    const double number = value && value->Number() ? *value->Number() : 1;
    return number >= 1 && number <= 4096 ? static_cast<long long>(number) : 1LL;
  };
  const long long ranks = static_cast<long long>(list->size()) * per_process("nthreads") * per_process("ngpus");
  table.ranks = static_cast<int>(std::min(ranks, 1LL << 30));
  table.nodes = static_cast<int>(hosts.size());
}

// Walks the lines once; a table opens at its header (or at a bare row) and closes at the
// summary, at a new header or when the sizes stop ascending. With kJudgedOnly it keeps only
// the runs ParseNcclTestsOutput may choose (the last, and the last that reached its summary).
enum class Keep { kAllRuns, kJudgedOnly };

class TextParser {
 public:
  TextParser(std::string origin, Keep keep, RowsOf rows = RowsOf::kAllreduce)
      : origin_(std::move(origin)), keep_(keep), rows_(rows) {}

  Result<std::vector<BandwidthTable>> Parse(LineSource& lines) {
    int last_line = 0;  // an output without a table is faulted at its last line
    while (const auto next = lines.Next()) {
      last_line = next->number;
      if (auto error = ParseLine(StripRankPrefix(WithoutCarriageReturn(next->text)), next->number)) return *error;
    }
    if (const std::string error = lines.error(); !error.empty()) return Error{origin_ + ": " + error};
    CloseTable();
    if (tables_.empty()) {
      return ErrorAt(origin_, last_line,
                     "no nccl-tests result table (a '# size count type redop root time algbw busbw #wrong' "
                     "header followed by rows); is this all_reduce_perf output?");
    }
    return tables_;
  }

 private:
  std::optional<Error> ParseLine(std::string_view content, int number) {
    if (content.empty() || content == "...") return std::nullopt;
    if (content.front() == '#') return ParseComment(content, number);
    const auto words = SplitWords(content);
    if (!LooksLikeRow(words)) {
      // Inside a table, a line that starts with a size but is not a row is a damaged row;
      // anything else (prompts, NCCL INFO lines) is noise around the table.
      if (open_ && !words.empty() && WholeNumber(words[0])) {
        return ErrorAt(origin_, number, "malformed result row " + QuoteForMessage(content));
      }
      return std::nullopt;
    }
    return AddRow(words, content, number);
  }

  std::optional<Error> ParseComment(std::string_view content, int number) {
    const auto words = CommentWords(content);
    if (words.empty()) return std::nullopt;
    if (IsTableHeader(words)) {
      CloseTable();
      OpenTable(TimeColumns(words) >= 2);
    } else if (words[0] == "nThread" || (words.size() >= 2 && words[0] == "Using" && words[1] == "devices")) {
      CloseTable();
      devices_.clear();
    } else if (words.size() >= 4 && words[0] == "Collective" && words[1] == "test" && words[2] == "starting:" &&
               words[3] != "all_reduce_perf") {
      return ErrorAt(origin_, number, "the output is from " + QuoteForMessage(words[3]) + ", not all_reduce_perf");
    } else if (auto device = ParseDeviceLine(words)) {
      devices_[device->rank] = device->host;
    } else if (Contains(content, "Out of bounds values")) {
      if (open_) current_.ended_with_summary = true;
      CloseTable();
    } else if (Contains(content, "Avg bus bandwidth")) {
      if (!tables_.empty()) tables_.back().reported_avg_busbw_gb_per_s = ValueAfterColon(content).value_or(0);
    }
    return std::nullopt;
  }

  std::optional<Error> AddRow(const std::vector<std::string_view>& words, std::string_view content, int number) {
    if (!open_) OpenTable(words.size() >= 13);
    std::string problem;
    auto row = ParseRow(words, in_place_columns_, rows_, problem);
    if (!row) return ErrorAt(origin_, number, problem + ": " + QuoteForMessage(content));
    // A size that does not ascend is the next cycle (-N) or a run pasted without its header.
    if (!current_.rows.empty() && row->size_bytes <= current_.rows.back().size_bytes) {
      const bool in_place = in_place_columns_;
      CloseTable();
      OpenTable(in_place);
    }
    current_.rows.push_back(*row);
    return std::nullopt;
  }

  void OpenTable(bool in_place_columns) {
    current_ = BandwidthTable{};
    current_.origin = origin_;
    current_.tool = kTool;
    current_.ranks = static_cast<int>(devices_.size());
    std::set<std::string> hosts;
    for (const auto& [rank, host] : devices_) hosts.insert(host);
    current_.nodes = static_cast<int>(hosts.size());
    in_place_columns_ = in_place_columns;
    open_ = true;
  }

  void CloseTable() {
    if (open_ && !current_.rows.empty()) tables_.push_back(std::move(current_));
    current_ = BandwidthTable{};
    open_ = false;
    if (keep_ == Keep::kJudgedOnly && tables_.size() > 2) {
      // Only the last run and the last that reached its summary can be judged.
      const auto last_summary = std::find_if(tables_.rbegin() + 1, tables_.rend(),
                                             [](const BandwidthTable& table) { return table.ended_with_summary; });
      std::vector<BandwidthTable> kept;
      if (last_summary != tables_.rend() && !tables_.back().ended_with_summary) kept.push_back(std::move(*last_summary));
      kept.push_back(std::move(tables_.back()));
      tables_ = std::move(kept);
    }
  }

  std::string origin_;
  Keep keep_;
  RowsOf rows_;
  std::map<long long, std::string> devices_;  // rank -> host, of the run being read
  std::vector<BandwidthTable> tables_;
  BandwidthTable current_;
  bool open_ = false;
  bool in_place_columns_ = true;
};

}  // namespace

Result<std::vector<BandwidthTable>> ParseNcclTestsRuns(const std::string& text, const std::string& origin) {
  TextLines lines(text);
  return TextParser(origin, Keep::kAllRuns).Parse(lines);
}

namespace {

Result<BandwidthTable> RunToJudge(LineSource& lines, const std::string& origin, RowsOf rows) {
  auto runs = TextParser(origin, Keep::kJudgedOnly, rows).Parse(lines);
  if (!runs) return Error{runs.error()};
  for (auto run = runs->rbegin(); run != runs->rend(); ++run) {
    if (run->ended_with_summary) return *run;
  }
  return runs->back();
}

}  // namespace

Result<BandwidthTable> ParseNcclTestsOutput(const std::string& text, const std::string& origin, RowsOf rows) {
  TextLines lines(text);
  return RunToJudge(lines, origin, rows);
}

Result<BandwidthTable> ParseNcclTestsOutput(LineSource& lines, const std::string& origin) {
  return RunToJudge(lines, origin, RowsOf::kAllreduce);
}

Result<BandwidthTable> ParseNcclTestsJson(const std::string& text, const std::string& origin) {
  auto document = JsonReader(text, origin).ReadDocument();
  if (!document) return Error{document.error()};
  const JsonValue* results = document->Member("results");
  const auto* list = results ? std::get_if<JsonValue::Array>(&results->value) : nullptr;
  if (!list || list->empty()) {
    return ErrorAt(origin, document->line, "no 'results' list in the JSON; is this an nccl-tests -J file?");
  }
  BandwidthTable table;
  table.origin = origin;
  table.tool = kTool;
  ReadJsonDevices(*document, table);
  for (const auto& result : *list) {
    std::string problem;
    auto row = JsonRow(result, problem);
    if (!row) return ErrorAt(origin, result.line, problem);
    if (!table.rows.empty() && row->size_bytes <= table.rows.back().size_bytes) {
      return ErrorAt(origin, result.line,
                     "result sizes must ascend, got " + std::to_string(row->size_bytes) + " B after " +
                         std::to_string(table.rows.back().size_bytes) + " B");
    }
    table.rows.push_back(*row);
  }
  const JsonValue* average = document->Member("average_bus_bandwidth");
  table.ended_with_summary = average || document->Member("out_of_bounds");
  if (average && average->Member("bandwidth") && average->Member("bandwidth")->Number()) {
    table.reported_avg_busbw_gb_per_s = *average->Member("bandwidth")->Number();
  }
  return table;
}

int RanksImpliedByBusbw(const BandwidthTable& table) {
  if (table.rows.empty()) return 0;
  const BandwidthRow& largest = table.rows.back();
  // Two printed decimals: below ~10 GB/s the ratio is too coarse to name n.
  if (largest.algbw_gb_per_s < 10) return 0;
  const double factor = largest.busbw_gb_per_s / largest.algbw_gb_per_s;  // 2(n-1)/n
  if (factor < 0.99 || factor >= 2.0) return 0;
  const double ranks = 2.0 / (2.0 - factor);
  if (ranks > 100000) return 0;
  return static_cast<int>(std::lround(ranks));
}

}  // namespace gpuconform::nccl_tests
