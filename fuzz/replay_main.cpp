// Replays inputs through a fuzz target without libFuzzer: every file named on the command line,
// and every file under every directory named, is fed to LLVMFuzzerTestOneInput once. Built with
// the ordinary compiler (gcc) so `make test` replays the committed corpus under ASan/UBSan; a
// crash or sanitizer report fails the run, and the file being replayed is printed first.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

int replay(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", file.c_str());
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "replay %s (%zu bytes)\n", file.c_str(), bytes.size());
  // A copy of exactly `size` bytes, so reading past the input is an ASan report.
  std::vector<uint8_t> exact(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(exact.data(), exact.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  int failures = 0;
  size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const fs::path arg(argv[i]);
    if (!fs::exists(arg)) {
      std::fprintf(stderr, "no such file or directory: %s\n", argv[i]);
      return 2;
    }
    std::vector<fs::path> files;
    if (fs::is_directory(arg)) {
      for (const auto& e : fs::recursive_directory_iterator(arg))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.push_back(arg);
    }
    for (const fs::path& f : files) {
      failures += replay(f);
      ++inputs;
    }
  }
  if (inputs == 0) {
    std::fprintf(stderr, "no inputs found\n");
    return 2;
  }
  std::printf("replayed %zu inputs\n", inputs);
  return failures == 0 ? 0 : 1;
}
