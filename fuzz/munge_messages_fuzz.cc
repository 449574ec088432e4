// Fuzzes what the Munge suite reads from munge's own messages and logs
// (probes/munge/munge_parse.h): FindMungeFailure on free text, and InterpretUnmunge with the
// text as unmunge's stdout and as its stderr. The first byte picks the exit status.
#include "fuzz/fuzz_support.h"
#include "probes/munge/munge_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  fuzz::Keep(munge::FindMungeFailure(text));
  const int exit_code = size > 0 ? static_cast<int>(data[0]) - 1 : 0;
  fuzz::Keep(munge::InterpretUnmunge(exit_code, text, ""));
  fuzz::Keep(munge::InterpretUnmunge(exit_code, "", text));
  fuzz::Keep(munge::MungeErrorName(exit_code));
  return 0;
}
