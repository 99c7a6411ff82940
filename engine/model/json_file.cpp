#include "model/json_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "core/error.h"
#include "model/json_fields.h"

namespace tfjsi::model {
namespace {

// Thrown by the limit check to stop at the first value past a limit.
struct TooDeep {};
struct TooManyNodes {};
struct DuplicateKey {
  std::string key, where;
};
struct TooLong {
  bool key;
  std::size_t bytes;
  std::string start;  // the first characters, to help find it
};

// A SAX pass that builds nothing, checks nesting depth and string lengths, and notes the key order
// of the objects asked for. It runs before the DOM parse because nlohmann's callback parser scans
// the whole parent container at the end of every object or array (looking for discarded values),
// which is quadratic in a long node list: a 262144-node model.json took minutes. Syntax errors
// surface here, as the parser's own.
class LimitCheck : public nlohmann::json_sax<nlohmann::json> {
 public:
  LimitCheck(const std::vector<JsonPath>& wanted, KeyOrders* orders)
      : wanted_(wanted), orders_(orders) {}
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t& s) override { return check(s, false); }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return enter(false); }
  bool key(string_t& s) override {
    check(s, true);
    // JSON.parse would keep the last of two equal keys without a word; a model.json that says two
    // things at once (two "weightsManifest", two "dtype" of a node) is refused instead.
    if (!keys_.back().insert(s).second) throw DuplicateKey{s, where()};
    key_ = s;
    if (orders_ && std::find(wanted_.begin(), wanted_.end(), path_) != wanted_.end())
      (*orders_)[path_].push_back(s);
    return true;
  }
  bool end_object() override { return leave(); }
  bool start_array(std::size_t) override { return enter(true); }
  bool end_array() override { return leave(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    throw e;
  }

 private:
  // A container is named by the key before it; path_ holds the names from the root's members
  // down. An array's elements get an empty name, which no asked path has, so nothing inside an
  // array is recorded.
  bool enter(bool array) {
    if (open_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) throw TooDeep{};
    // The graph's nodes (and those of library functions and the initializer) are counted here,
    // so that a million of them are refused before a DOM of them is built.
    if (!array && !open_.empty() && open_.back() && !path_.empty() &&
        (path_.back() == "node" || path_.back() == "nodeDef") && ++nodes_ > kMaxNodes)
      throw TooManyNodes{};
    if (!open_.empty()) path_.push_back(open_.back() ? std::string() : key_);
    open_.push_back(array);
    keys_.emplace_back();
    return true;
  }
  bool leave() {
    keys_.pop_back();
    open_.pop_back();
    if (!open_.empty()) path_.pop_back();
    return true;
  }
  static bool check(const string_t& s, bool key) {
    if (s.size() > kMaxStringBytes) throw TooLong{key, s.size(), s.substr(0, 40)};
    return true;
  }
  // Where the current object is, as "modelTopology.node[].attr".
  std::string where() const {
    std::string w;
    for (const auto& p : path_) w += p.empty() ? std::string("[]") : (w.empty() ? "" : ".") + p;
    return w.empty() ? std::string("the top-level object") : w;
  }

  const std::vector<JsonPath>& wanted_;
  KeyOrders* orders_;
  std::vector<std::set<std::string>> keys_;  // keys seen in each open object
  std::size_t nodes_ = 0;
  std::vector<bool> open_;  // the open containers, outermost first: an array (true) or an object
  JsonPath path_;
  std::string key_;  // the last key read
};

std::string strip_json_prefix(std::string msg) {
  // nlohmann prefixes "[json.exception.parse_error.101] "; the user does not need it.
  if (!msg.empty() && msg.front() == '[') {
    const auto end = msg.find("] ");
    if (end != std::string::npos) msg.erase(0, end + 2);
  }
  return msg;
}

}  // namespace

nlohmann::json read_json_file(const std::filesystem::path& file,
                              const std::vector<JsonPath>& keep_order, KeyOrders* orders) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    fail_model(file, "expected a JSON file, found a folder");
  // A FIFO or device in place of model.json would block or never end.
  if (!std::filesystem::is_regular_file(file, ec)) fail_model(file, "expected a regular JSON file");
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) fail_model(file, "cannot read its size: " + ec.message());
  if (size > kMaxJsonBytes)
    fail_model(file, "is " + std::to_string(size) + " bytes; model.json files over " +
                         std::to_string(kMaxJsonBytes) + " bytes are refused (kMaxJsonBytes)");
  std::ifstream in(file, std::ios::binary);
  if (!in) fail_model(file, std::string("cannot open: ") + std::strerror(errno));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail_model(file, "read error");
  return parse_json_text(text, file, keep_order, orders);
}

nlohmann::json parse_json_text(std::string_view text, const std::filesystem::path& file,
                               const std::vector<JsonPath>& keep_order, KeyOrders* orders) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    fail_model(file, "empty file, expected a model.json object");

  try {
    LimitCheck check(keep_order, orders);
    nlohmann::json::sax_parse(text.begin(), text.end(), &check);
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const TooDeep&) {
    fail_model(file, "JSON nested more than " + std::to_string(kMaxJsonDepth) +
                         " levels deep (limit kMaxJsonDepth)");
  } catch (const TooManyNodes&) {
    // Counted while reading, before any of it is built: the exact count is not known.
    fail_model(file, "the graph has " + std::to_string(kMaxNodes + 1) +
                         " nodes or more, more than the limit of " + std::to_string(kMaxNodes) +
                         " (kMaxNodes)");
  } catch (const DuplicateKey& e) {
    fail_model(file, "the key \"" + e.key + "\" appears twice in " + e.where +
                         "; which one is meant is ambiguous");
  } catch (const TooLong& e) {
    fail_model(file, std::string(e.key ? "a key" : "a string") + " of " + std::to_string(e.bytes) +
                         " bytes (starting \"" + e.start + "\") is longer than the limit of " +
                         std::to_string(kMaxStringBytes) + " bytes (kMaxStringBytes)");
  } catch (const nlohmann::json::parse_error& e) {
    fail_model(file, "not valid JSON: " + strip_json_prefix(e.what()));
  } catch (const nlohmann::json::exception& e) {
    fail_model(file, "not valid JSON: " + strip_json_prefix(e.what()));
  }
}

}  // namespace tfjsi::model
