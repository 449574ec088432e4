// dcgmi diag's boxed text table (dcgmi/Diag.cpp of DCGM 3.x and 4.x): a two-column table whose
// sections start with "|-----  Metadata  ---...|" or "+-----  Hardware  ---...+" rows, each
// test a "| <name> | <state>" row followed by rows with an empty name (4.x "GPU0: Pass", or a
// message's next 45 characters), "Warning"/"Info"/"Error" rows and 4.x "Warning: GPU0" rows.
#include <charconv>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"
#include "probes/dcgm/dcgm_diag_formats.h"

namespace gpuconform::dcgm {

namespace {

// dcgmi cuts each message into pieces of this many characters, one per row (DATA_INFO_TAG_LEN).
constexpr std::size_t kMessagePiece = 45;

struct Row {
  std::string name;       // the left cell, trimmed
  std::string_view cell;  // the right cell after its leading space, padding included
};

// "| name | value |" -> the two cells; nullopt for anything else.
std::optional<Row> SplitRow(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  if (line.size() < 3 || line.front() != '|' || line.back() != '|') return std::nullopt;
  const std::size_t middle = line.find('|', 1);
  if (middle == std::string_view::npos || middle == line.size() - 1) return std::nullopt;
  Row row;
  row.name = std::string(Trim(line.substr(1, middle - 1)));
  row.cell = line.substr(middle + 1, line.size() - middle - 2);
  if (!row.cell.empty() && row.cell.front() == ' ') row.cell.remove_prefix(1);
  return row;
}

bool IsBorder(std::string_view line) {
  line = Trim(line);
  return !line.empty() && line.find_first_not_of("+-=|") == std::string_view::npos;
}

// "|-----  Hardware  ----------+---...|" -> "Hardware"; nullopt for other lines.
std::optional<std::string> SectionName(std::string_view line) {
  line = Trim(line);
  if (!StartsWith(line, "|--") && !StartsWith(line, "+--")) return std::nullopt;
  line.remove_prefix(1);
  const std::size_t start = line.find_first_not_of("- ");
  if (start == std::string_view::npos || line[start] == '+' || line[start] == '|') return std::nullopt;
  const std::size_t end = line.find("--", start);
  return std::string(Trim(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
}

// "GPU0" -> {"GPU", 0}.
std::optional<std::pair<std::string, int>> EntityName(std::string_view text) {
  text = Trim(text);
  std::size_t digits = 0;
  while (digits < text.size() && (text[digits] < '0' || text[digits] > '9')) ++digits;
  if (digits == 0 || digits == text.size()) return std::nullopt;
  int id = 0;
  const auto [end, error] = std::from_chars(text.data() + digits, text.data() + text.size(), id);
  if (error != std::errc() || end != text.data() + text.size() || id < 0) return std::nullopt;
  for (std::size_t i = 0; i < digits; ++i) {
    if (!((text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= 'a' && text[i] <= 'z'))) return std::nullopt;
  }
  return std::make_pair(std::string(text.substr(0, digits)), id);
}

// 4.x "GPU0: Pass" -> the entity and its state.
std::optional<EntityResult> EntityLine(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto entity = EntityName(text.substr(0, colon));
  const auto state = DiagStateFromWord(text.substr(colon + 1));
  if (!entity || !state) return std::nullopt;
  EntityResult result;
  result.entity_group = entity->first;
  result.entity_id = entity->second;
  result.state = *state;
  return result;
}

// A test's state cell: "Pass", "Fail - All", "Fail - GPU: 0", "Pass - GPUs: 1, 2".
struct StateCell {
  DiagState state = DiagState::kPass;
  bool all = false;
  std::vector<int> gpus;
};

std::optional<StateCell> ParseStateCell(std::string_view text) {
  text = Trim(text);
  StateCell cell;
  const std::size_t dash = text.find(" - ");
  const auto state = DiagStateFromWord(text.substr(0, dash));
  if (!state) return std::nullopt;
  cell.state = *state;
  if (dash == std::string_view::npos) return cell;
  std::string_view rest = Trim(text.substr(dash + 3));
  if (rest == "All") {
    cell.all = true;
    return cell;
  }
  if (!StartsWith(rest, "GPU: ") && !StartsWith(rest, "GPUs: ")) return std::nullopt;
  rest.remove_prefix(rest.find(':') + 1);
  auto gpus = GpuNumbers(rest);
  if (!gpus) return std::nullopt;
  cell.gpus = std::move(*gpus);
  return cell;
}

// The level of "dcgmi diag -r 2", "--run long", "-r3"; nullopt for a named test ("-r pcie").
std::optional<int> LevelOf(std::string_view command) {
  const auto words = SplitWords(command);
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string_view value;
    if ((words[i] == "-r" || words[i] == "--run") && i + 1 < words.size()) {
      value = words[i + 1];
    } else if (StartsWith(words[i], "--run=")) {
      value = words[i].substr(6);
    } else if (StartsWith(words[i], "-r") && words[i].size() > 2 && words[i][1] == 'r') {
      value = words[i].substr(2);
    } else {
      continue;
    }
    if (value == "1" || value == "short") return 1;
    if (value == "2" || value == "medium") return 2;
    if (value == "3" || value == "long") return 3;
    if (value == "4" || value == "xlong") return 4;
    return std::nullopt;
  }
  return std::nullopt;
}

class TextReader {
 public:
  explicit TextReader(const std::string& origin) : origin_(origin) {
    report_.origin = origin;
    report_.format = "text";
  }

  Result<DcgmDiagReport> Read(const std::string& text) {
    // One line of look-ahead: a row cut off by the end of the output is no error. The text
    // outlives the source, so a line stays valid past the next call to Next.
    TextLines lines(text);
    for (auto line = lines.Next(); line;) {
      const auto next = lines.Next();
      auto problem = ReadLine(line->text, !next);
      if (!problem.empty()) return ErrorAt(origin_, line->number, problem);
      line = next;
    }
    FinishMessage();
    if (!in_table_ && report_.runtime_errors.empty()) {
      return ErrorAt(origin_, 1, "not dcgmi diag output: no '| Diagnostic | Result |' table and no dcgmi error line");
    }
    return report_;
  }

 private:
  // Where an empty-named row's text goes: the message being unwrapped.
  enum class Continues { kNothing, kWarning, kInfo };

  std::string ReadLine(std::string_view line, bool last) {
    const std::string_view trimmed = Trim(line);
    if (trimmed.empty()) return "";
    if (!in_table_) {
      if (const auto row = SplitRow(trimmed); row && row->name == "Diagnostic") {
        in_table_ = true;
        return "";
      }
      if (IsBorder(trimmed)) return "";
      if (Contains(trimmed, "dcgmi") && Contains(trimmed, " diag")) {
        report_.command = std::string(trimmed);
        report_.level = LevelOf(trimmed);
      } else if (StartsWith(trimmed, "Error:")) {
        report_.runtime_errors.push_back(std::string(trimmed));
      }
      return "";  // the prompt, "Successfully ran diagnostic for group.", notes
    }
    if (report_.complete) return "";  // what follows the table (the next prompt)
    if (const auto section = SectionName(trimmed)) {
      FinishMessage();
      section_ = *section;
      test_ = nullptr;
      return "";
    }
    if (IsBorder(trimmed)) {
      FinishMessage();
      if (Contains(trimmed, "=")) {
        seen_header_rule_ = true;
      } else if (seen_header_rule_) {
        report_.complete = true;
      }
      return "";
    }
    const auto row = SplitRow(trimmed);
    if (!row) {
      if (last) return "";  // cut off mid-row: complete stays false
      return "a line inside the table that is not a row: " + QuoteForMessage(trimmed);
    }
    if (section_ == "Metadata") return ReadMetadata(*row);
    return ReadResultRow(*row);
  }

  std::string ReadMetadata(const Row& row) {
    const std::string value(Trim(row.cell));
    if (row.name == "DCGM Version") report_.dcgm_version = value;
    if (row.name == "Driver Version Detected") report_.driver_version = value;
    if (row.name == "GPU Device IDs Detected") report_.gpu_device_ids = CommaList(value);
    return "";
  }

  std::string ReadResultRow(const Row& row) {
    if (row.name.empty()) return ReadContinuation(row);
    FinishMessage();
    if (row.name == "Warning" || row.name == "Error" || row.name == "Info") {
      if (!test_) return "a " + row.name + " row before any test";
      StartMessage(row.name == "Info" ? Continues::kInfo : Continues::kWarning, nullptr, row.cell);
      return "";
    }
    if (StartsWith(row.name, "Warning: ") || StartsWith(row.name, "Info: ")) {
      if (!test_) return "a " + row.name + " row before any test";
      const auto entity = EntityName(row.name.substr(row.name.find(':') + 1));
      if (!entity) return "a message row naming no entity I know: " + QuoteForMessage(row.name);
      StartMessage(StartsWith(row.name, "Info") ? Continues::kInfo : Continues::kWarning,
                   &EntityOf(entity->first, entity->second), row.cell);
      return "";
    }
    const auto cell = ParseStateCell(row.cell);
    if (!cell) return "test '" + row.name + "' has no result I know: " + QuoteForMessage(Trim(row.cell));
    DiagTest test;
    test.name = row.name;
    test.category = section_;
    report_.tests.push_back(std::move(test));
    test_ = &report_.tests.back();
    AddStateCell(*cell);
    return "";
  }

  std::string ReadContinuation(const Row& row) {
    const std::string_view text = Trim(row.cell);
    if (text.empty()) return "";
    if (test_) {
      if (auto entity = EntityLine(text)) {
        FinishMessage();
        EntityResult& result = EntityOf(entity->entity_group, entity->entity_id);
        result.state = entity->state;
        return "";
      }
      if (const auto cell = ParseStateCell(text); cell && !cell->gpus.empty() && continues_ == Continues::kNothing) {
        AddStateCell(*cell);
        return "";
      }
    }
    if (continues_ != Continues::kNothing) {
      pending_ += std::string(row.cell.substr(0, kMessagePiece));
      return "";
    }
    if (!test_) return "a row with no test or message above it: " + QuoteForMessage(text);
    test_->info.emplace_back(text);  // e.g. 3.x "Code: (000000000000)" under a Diagnostic warning
    return "";
  }

  void AddStateCell(const StateCell& cell) {
    if (cell.gpus.empty()) {
      test_->overall = cell.state;
      test_->all_gpus = cell.all;
      return;
    }
    for (const int gpu : cell.gpus) EntityOf("GPU", gpu).state = cell.state;
  }

  EntityResult& EntityOf(const std::string& group, int id) {
    for (auto& entity : test_->entities) {
      if (entity.entity_group == group && entity.entity_id == id) return entity;
    }
    EntityResult entity;
    entity.entity_group = group;
    entity.entity_id = id;
    test_->entities.push_back(std::move(entity));
    return test_->entities.back();
  }

  void StartMessage(Continues kind, EntityResult* entity, std::string_view cell) {
    continues_ = kind;
    entity_ = entity;
    pending_ = std::string(cell.substr(0, kMessagePiece));
  }

  // The unwrapped message to its test or entity. Entities are only appended while no message
  // is pending (FinishMessage runs first), so entity_ stays valid.
  void FinishMessage() {
    if (continues_ == Continues::kNothing || !test_) {
      continues_ = Continues::kNothing;
      return;
    }
    std::string text(Trim(pending_));
    if (continues_ == Continues::kInfo) {
      (entity_ ? entity_->info : test_->info).push_back(std::move(text));
    } else if (entity_) {
      entity_->warnings.push_back(MakeMessage(std::move(text), std::nullopt, entity_->entity_group == "GPU"
                                                                                  ? std::optional<int>(entity_->entity_id)
                                                                                  : std::nullopt));
    } else {
      test_->warnings.push_back(MakeMessage(std::move(text), std::nullopt, std::nullopt));
    }
    continues_ = Continues::kNothing;
    entity_ = nullptr;
    pending_.clear();
  }

  std::string origin_;
  DcgmDiagReport report_;
  bool in_table_ = false;
  bool seen_header_rule_ = false;
  std::string section_;
  DiagTest* test_ = nullptr;
  Continues continues_ = Continues::kNothing;
  EntityResult* entity_ = nullptr;
  std::string pending_;
};

}  // namespace

Result<DcgmDiagReport> ParseDcgmDiagText(const std::string& text, const std::string& origin) {
  return TextReader(origin).Read(text);
}

}  // namespace gpuconform::dcgm
