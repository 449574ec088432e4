// ReasonCode: a code from the reason catalogue, checked when the program is compiled.
// Contract: a ReasonCode always names an entry of kReasons. Its constructor is consteval,
// so ReasonCode("nvlink-down") with a code the catalogue lacks does not compile; a code
// read at run time goes through FindReason instead, which can say "unknown".
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "harness/core/reason_catalogue.h"

namespace gpuconform {

namespace reason_detail {
// Not constexpr on purpose: reaching it during constant evaluation is the compile error
// an unknown code produces ("call to non-'constexpr' function ... UnknownReasonCode").
void UnknownReasonCode();
}  // namespace reason_detail

class ReasonCode {
 public:
  // Implicit, so a literal can stand where a ReasonCode is expected: Errored(..., "unparseable", ...).
  consteval ReasonCode(const char* code) : entry_(FindReason(code)) {  // NOLINT: implicit by design
    if (entry_ == nullptr) reason_detail::UnknownReasonCode();
  }

  // A code read at run time (a results document): nothing when the catalogue lacks it.
  static std::optional<ReasonCode> Find(std::string_view code) {
    const ReasonEntry* entry = FindReason(code);
    if (entry == nullptr) return std::nullopt;
    return ReasonCode(entry);
  }

  constexpr std::string_view code() const { return entry_->code; }
  constexpr const ReasonEntry& entry() const { return *entry_; }
  std::string str() const { return std::string(entry_->code); }

  friend constexpr bool operator==(const ReasonCode& a, const ReasonCode& b) { return a.entry_ == b.entry_; }
  friend constexpr bool operator==(const ReasonCode& a, std::string_view b) { return a.code() == b; }
  friend constexpr bool operator==(const ReasonCode& a, const char* b) { return a.code() == std::string_view(b); }
  friend std::ostream& operator<<(std::ostream& out, const ReasonCode& reason) { return out << reason.code(); }

 private:
  constexpr explicit ReasonCode(const ReasonEntry* entry) : entry_(entry) {}
  const ReasonEntry* entry_ = nullptr;
};

}  // namespace gpuconform
