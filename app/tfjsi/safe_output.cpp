#include "safe_output.h"

#include <iostream>
#include <streambuf>

#include "core/terminal_text.h"

namespace tfjsi::cli {

// Collects what is written and passes it on escaped, whole UTF-8 sequences at a time.
class SafeOutput::Filter : public std::streambuf {
 public:
  explicit Filter(std::ostream& stream) : stream_(stream), target_(stream.rdbuf(this)) {}
  ~Filter() override {
    emit(true);
    stream_.rdbuf(target_);
  }

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) pending_ += traits_type::to_char_type(c);
    if (pending_.size() >= 4096) emit(false);
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    pending_.append(s, static_cast<std::size_t>(n));
    if (pending_.size() >= 4096) emit(false);
    return n;
  }
  int sync() override {
    emit(false);
    return target_->pubsync();
  }

 private:
  // Holds back the start of a UTF-8 sequence whose other bytes are still to come.
  void emit(bool all) {
    std::size_t cut = pending_.size();
    if (!all) {
      for (std::size_t k = 1; k <= 3 && k <= pending_.size(); ++k) {
        const auto b = static_cast<unsigned char>(pending_[pending_.size() - k]);
        if ((b & 0xc0) == 0x80) continue;  // a continuation byte: look further back
        const std::size_t need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
        if (need > k) cut = pending_.size() - k;
        break;
      }
    }
    if (cut == 0) return;
    const std::string safe = terminal_safe_lines(std::string_view(pending_).substr(0, cut));
    target_->sputn(safe.data(), static_cast<std::streamsize>(safe.size()));
    pending_.erase(0, cut);
    if (all) target_->pubsync();
  }

  std::ostream& stream_;
  std::streambuf* target_;
  std::string pending_;
};

SafeOutput::SafeOutput()
    : out_(std::make_unique<Filter>(std::cout)), err_(std::make_unique<Filter>(std::cerr)) {}

SafeOutput::~SafeOutput() = default;

std::string json_text(const nlohmann::json& j) {
  return j.dump(2, ' ', /*ensure_ascii=*/true);
}

}  // namespace tfjsi::cli
