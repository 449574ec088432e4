#include "harness/util/read_file.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace gpuconform {

Result<std::string> ReadTextFile(const std::string& path, const std::string& what, std::size_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path + ": is a directory, not a " + what};
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return Error{path + ": cannot open " + what + ": " + ec.message()};
  if (size > max_bytes) {
    return Error{path + ": " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) + " a " +
                 what + " may have"};
  }
  std::ifstream input(path, std::ios::binary);
  if (!input) return Error{path + ": cannot open " + what + ": " + std::generic_category().message(errno)};
  std::string text(static_cast<std::size_t>(size), '\0');
  input.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (input.bad()) return Error{path + ": cannot read " + what};
  text.resize(static_cast<std::size_t>(input.gcount()));
  return text;
}

}  // namespace gpuconform
