// Fuzzes gpuconform's own record-line format (harness/util/record_lines.h: ParseRecordLines),
// then every field through the typed readers (IntegerField, NumberField, RequiredField).
#include "fuzz/fuzz_support.h"
#include "harness/util/record_lines.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(ParseRecordLines(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& records) {
    for (const auto& record : records) {
      for (const auto& [key, value] : record.fields) {
        fuzz::Keep(IntegerField(record, key, fuzz::kOrigin));
        fuzz::Keep(NumberField(record, key, fuzz::kOrigin));
        fuzz::Keep(RequiredField(record, key, fuzz::kOrigin));
      }
    }
  });
  return 0;
}
