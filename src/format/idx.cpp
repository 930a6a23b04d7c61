#include "format/idx.hpp"

#include <climits>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "layout/hz.hpp"

namespace lodex {

namespace {

const char* idx_dtype_name(DType t) {
  switch (t) {
    case DType::kU1: return "uint8";
    case DType::kI1: return "int8";
    case DType::kU2: return "uint16";
    case DType::kI2: return "int16";
    case DType::kU4: return "uint32";
    case DType::kI4: return "int32";
    case DType::kU8: return "uint64";
    case DType::kI8: return "int64";
    case DType::kF4: return "float32";
    case DType::kF8: return "float64";
  }
  return "?";
}

bool parse_idx_dtype_name(const std::string& s, DType& t) {
  static const std::pair<const char*, DType> kNames[] = {
      {"uint8", DType::kU1},   {"int8", DType::kI1},   {"uint16", DType::kU2}, {"int16", DType::kI2},
      {"uint32", DType::kU4},  {"int32", DType::kI4},  {"uint64", DType::kU8}, {"int64", DType::kI8},
      {"float32", DType::kF4}, {"float64", DType::kF8}};
  for (const auto& [n, d] : kNames)
    if (s == n) {
      t = d;
      return true;
    }
  return false;
}

template <typename T>
bool parse_int(const std::string& s, T& out) {
  const char* b = s.data();
  const char* e = s.data() + s.size();
  const auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e;
}

// Whitespace-separated tokens; text inside parentheses stays in one token ("min(0 0 0)").
std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (depth == 0 && std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(cur), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// "float32", "float32[3]", "3*float32".
void parse_field_type(const std::string& s, IdxField& f, const std::string& what) {
  std::string base = s;
  uint32_t comps = 1;
  if (const size_t star = s.find('*'); star != std::string::npos) {
    if (!parse_int(s.substr(0, star), comps))
      fail(ErrorCode::kFormat, what, ": field '", f.name, "' has type '", s, "'");
    base = s.substr(star + 1);
  } else if (const size_t br = s.find('['); br != std::string::npos) {
    if (s.back() != ']' || !parse_int(s.substr(br + 1, s.size() - br - 2), comps))
      fail(ErrorCode::kFormat, what, ": field '", f.name, "' has type '", s, "'");
    base = s.substr(0, br);
  }
  if (!parse_idx_dtype_name(base, f.dtype))
    fail(ErrorCode::kFormat, what, ": field '", f.name, "' has type '", s,
         "'; expected uint8, int8, uint16, int16, uint32, int32, uint64, int64, float32 or float64 (with [n] or n*)");
  if (comps < 1 || comps > 4096) fail(ErrorCode::kFormat, what, ": field '", f.name, "' has ", comps, " components");
  f.components = comps;
}

std::string option_value(const std::string& tok, const std::string& key) {
  if (tok.size() >= key.size() + 2 && tok.compare(0, key.size() + 1, key + "(") == 0 && tok.back() == ')')
    return tok.substr(key.size() + 1, tok.size() - key.size() - 2);
  return "\x01";   // not this option
}

IdxField parse_field(const std::vector<std::string>& t, const std::string& what) {
  IdxField f;
  if (t.size() < 2)
    fail(ErrorCode::kFormat, what, ": a field needs a name and a type, got '", t.empty() ? "" : t[0], "'");
  f.name = t[0];
  parse_field_type(t[1], f, what);
  for (size_t i = 2; i < t.size(); ++i) {
    const std::string& o = t[i];
    std::string v;
    if ((v = option_value(o, "default_compression")) != "\x01" || (v = option_value(o, "compression")) != "\x01" ||
        (v = option_value(o, "compressed")) != "\x01") {
      f.compression = v == "raw" ? "" : v;
    } else if (o == "compressed") {
      f.compression = "zip";
    } else if ((v = option_value(o, "default_layout")) != "\x01") {
      f.hz_layout = v == "hzorder" || v == "0";
    } else if ((v = option_value(o, "format")) != "\x01") {
      f.hz_layout = v == "0";
    } else if (o == "row_major") {
      f.hz_layout = false;
    }   // default_value, min, max, filter, description...: display hints, not needed to read
  }
  return f;
}

}  // namespace

std::array<uint64_t, 3> IdxHeader::dims() const {
  std::array<uint64_t, 3> d{1, 1, 1};
  for (int a = 0; a < ndims; ++a) d[a] = static_cast<uint64_t>(box_max[a] - box_min[a] + 1);
  return d;
}

std::string encode_idx_header(const IdxHeader& h) {
  std::ostringstream s;
  s << "(version)\n" << h.version << "\n(box)\n";
  for (int a = 0; a < h.ndims; ++a) s << (a ? " " : "") << h.box_min[a] << " " << h.box_max[a];
  s << "\n(fields)\n";
  for (size_t i = 0; i < h.fields.size(); ++i) {
    const IdxField& f = h.fields[i];
    if (i) s << "+ ";
    s << f.name << " " << idx_dtype_name(f.dtype);
    if (f.components > 1) s << "[" << f.components << "]";
    if (!f.compression.empty()) s << " default_compression(" << f.compression << ")";
    std::string zeros = "0";   // min/max: display range, one value per component
    for (uint32_t c = 1; c < f.components; ++c) zeros += " 0";
    s << " default_layout(" << (f.hz_layout ? "hzorder" : "") << ") default_value(0) min(" << zeros << ") max(" << zeros
      << ") \n";
  }
  s << "(bits)\n"
    << h.bits << "\n(bitsperblock)\n"
    << h.bits_per_block << "\n(blocksperfile)\n"
    << h.blocks_per_file << "\n(interleave block)\n"
    << h.interleave << "\n";
  if (h.time) s << "(time)\n" << h.time->first << " " << h.time->last << " " << h.time->pattern << "\n";
  s << "(filename_template)\n"
    << h.filename_template << "\n(missing_blocks)\n"
    << h.missing_blocks << "\n(arco)\n"
    << h.arco << "\n";
  for (const auto& [k, v] : h.other) s << "(" << k << ")\n" << v << "\n";
  return s.str();
}

namespace {

using IdxEntries = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Keys "(name)" on their own line, then value lines up to the next key.
IdxEntries split_entries(const std::string& text, const std::string& what) {
  IdxEntries entries;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::string trimmed = line.substr(first, line.find_last_not_of(" \t") - first + 1);
    if (trimmed.front() == '(' && trimmed.back() == ')' && trimmed.find(')') == trimmed.size() - 1) {
      entries.push_back({trimmed.substr(1, trimmed.size() - 2), {}});
    } else {
      // Not quoted: the file may be anything (a password file), and the error may be shown to others.
      if (entries.empty())
        fail(ErrorCode::kFormat, what, " is not an IDX file: its first line is not a key such as (version)");
      entries.back().second.push_back(trimmed);
    }
  }
  return entries;
}

void parse_box(const std::string& value, IdxHeader& h, const std::string& what) {
  const auto t = tokens(value);
  if (t.size() < 2 || t.size() > 10 || t.size() % 2)
    fail(ErrorCode::kFormat, what, ": (box) '", value, "' must hold 2 to 10 integers, min and max per axis");
  std::vector<int64_t> v(t.size());
  for (size_t i = 0; i < t.size(); ++i)
    if (!parse_int(t[i], v[i])) fail(ErrorCode::kFormat, what, ": (box) '", value, "' is not all integers");
  int n = static_cast<int>(t.size() / 2);
  while (n > 1 && v[2 * (n - 1)] == 0 && v[2 * (n - 1) + 1] == 0 && n > 3) --n;   // PIDX's 5-D padding
  if (n > 3) fail(ErrorCode::kFormat, what, ": (box) '", value, "' has ", n, " axes; at most 3 are supported");
  h.ndims = n;
  for (int a = 0; a < n; ++a) {
    h.box_min[a] = v[2 * a];
    h.box_max[a] = v[2 * a + 1];
    if (h.box_min[a] < 0 || h.box_max[a] < h.box_min[a])
      fail(ErrorCode::kFormat, what, ": (box) '", value, "' has an empty or negative axis");
  }
}

void parse_fields(const std::string& value, IdxHeader& h, const std::string& what) {
  std::vector<std::string> cur;
  for (const std::string& tok : tokens(value)) {
    if (tok == "+") {
      h.fields.push_back(parse_field(cur, what));
      cur.clear();
    } else {
      cur.push_back(tok);
    }
  }
  if (!cur.empty()) h.fields.push_back(parse_field(cur, what));
  if (h.fields.empty()) fail(ErrorCode::kFormat, what, ": (fields) is empty");
}

// One entry into the header; returns whether the key is one of the six a header must have.
bool apply_entry(const std::string& key, const std::string& value, IdxHeader& h, const std::string& what) {
  auto integer = [&](auto& out) {
    if (!parse_int(value, out)) fail(ErrorCode::kFormat, what, ": (", key, ") is '", value, "', not an integer");
  };
  if (key == "version") {
    const std::string major = value.substr(0, value.find('.'));
    if (!parse_int(major, h.version)) fail(ErrorCode::kFormat, what, ": (version) is '", value, "'");
  } else if (key == "box") {
    parse_box(value, h, what);
  } else if (key == "fields") {
    parse_fields(value, h, what);
  } else if (key == "bits") {
    h.bits = value;
  } else if (key == "bitsperblock") {
    integer(h.bits_per_block);
  } else if (key == "blocksperfile") {
    integer(h.blocks_per_file);
  } else {
    if (key == "interleave block" || key == "interleave") {
      integer(h.interleave);
    } else if (key == "filename_template") {
      h.filename_template = value;
    } else if (key == "time") {
      const auto t = tokens(value);
      if (t.size() != 3) fail(ErrorCode::kFormat, what, ": (time) '", value, "' must be 'first last template'");
      h.time = IdxTime{t[0], t[1], t[2]};
    } else if (key == "missing_blocks") {
      integer(h.missing_blocks);
    } else if (key == "arco") {
      integer(h.arco);
    } else {
      h.other.push_back({key, value});
    }
    return false;
  }
  return true;
}

// What this reader supports, and the defaults a header may leave out (blocks per file, bits per block).
void check_header(IdxHeader& h, const std::string& what) {
  if (h.version != 6)
    fail(ErrorCode::kUnsupported, what, ": IDX version ", h.version, " files are not supported (version 6 only)");
  if (h.bits.empty()) fail(ErrorCode::kUnsupported, what, ": an empty (bits) (guessed bitmask) is not supported");
  const HzIndex index = [&] {
    try {
      return HzIndex(h.bits);
    } catch (const Error& e) {
      fail(ErrorCode::kFormat, what, ": ", e.what());
    }
  }();
  if (!index.holds(h.dims()))
    fail(ErrorCode::kFormat, what, ": bitmask ", h.bits, " does not cover the box (", h.dims()[0], " x ", h.dims()[1],
         " x ", h.dims()[2], ")");
  if (h.bits_per_block == 0) h.bits_per_block = std::min(index.maxh(), 16);
  if (h.bits_per_block < 0 || h.bits_per_block > 31)
    fail(ErrorCode::kFormat, what, ": (bitsperblock) ", h.bits_per_block, " is outside 1..31");
  h.bits_per_block = std::min(h.bits_per_block, index.maxh());
  const uint64_t blocks = uint64_t{1} << (index.maxh() - h.bits_per_block);
  if (h.blocks_per_file == -1) h.blocks_per_file = static_cast<int64_t>(blocks);
  if (h.blocks_per_file < 1 || h.blocks_per_file > (int64_t{1} << 32))
    fail(ErrorCode::kUnsupported, what, ": (blocksperfile) ", h.blocks_per_file, " is not supported");
  if (h.interleave != 0) fail(ErrorCode::kUnsupported, what, ": interleaved blocks are not supported");
  if (h.filename_template.empty())
    fail(ErrorCode::kUnsupported, what, ": an empty (filename_template) (guessed names) is not supported");
}

}  // namespace

IdxHeader decode_idx_header(const std::string& text, const std::string& what) {
  IdxHeader h;
  h.filename_template.clear();
  std::set<std::string> required;
  for (const auto& [key, lines] : split_entries(text, what)) {
    std::string value;
    for (const auto& x : lines) value += (value.empty() ? "" : " ") + x;
    if (apply_entry(key, value, h, what)) required.insert(key);
  }
  if (required.size() != 6)
    fail(ErrorCode::kFormat, what, ": missing one of (version) (box) (fields) (bits) (bitsperblock) (blocksperfile)");
  check_header(h, what);
  return h;
}

void encode_idx_table(const std::vector<IdxBlockEntry>& entries, std::vector<uint8_t>& out) {
  out.reserve(out.size() + kIdxFileHeaderBytes + kIdxBlockEntryBytes * entries.size());
  out.insert(out.end(), kIdxFileHeaderBytes, 0);
  auto be32 = [&](uint32_t v) {
    out.push_back(static_cast<uint8_t>(v >> 24));
    out.push_back(static_cast<uint8_t>(v >> 16));
    out.push_back(static_cast<uint8_t>(v >> 8));
    out.push_back(static_cast<uint8_t>(v));
  };
  for (const IdxBlockEntry& e : entries) {
    if (e.size > UINT32_MAX) fail(ErrorCode::kUnsupported, "an IDX block of ", e.size, " bytes is over 4 GiB");
    be32(0);
    be32(0);
    be32(static_cast<uint32_t>(e.offset));
    be32(static_cast<uint32_t>(e.offset >> 32));
    be32(static_cast<uint32_t>(e.size));
    be32(e.flags);
    for (int i = 0; i < 4; ++i) be32(0);
  }
}

std::vector<IdxBlockEntry> decode_idx_table(const uint8_t* data, size_t size, uint64_t blocks_per_file, size_t fields,
                                            uint64_t file_size, const std::string& what) {
  const uint64_t need = idx_table_bytes(blocks_per_file, fields);
  if (size < need)
    fail(ErrorCode::kFormat, what, " is truncated: its block table needs ", need, " bytes, found ", size);
  auto be32 = [&](size_t at) {
    return uint32_t{data[at]} << 24 | uint32_t{data[at + 1]} << 16 | uint32_t{data[at + 2]} << 8 | data[at + 3];
  };
  std::vector<IdxBlockEntry> out(blocks_per_file * fields);
  for (size_t i = 0; i < out.size(); ++i) {
    const size_t at = kIdxFileHeaderBytes + i * kIdxBlockEntryBytes;
    IdxBlockEntry& e = out[i];
    e.offset = uint64_t{be32(at + 8)} | uint64_t{be32(at + 12)} << 32;
    e.size = be32(at + 16);
    e.flags = be32(at + 20);
    if (!e.present()) continue;
    if (e.offset < need || e.offset > file_size || e.size > file_size - e.offset)
      fail(ErrorCode::kFormat, what, ": block slot ", i % blocks_per_file, " of field ", i / blocks_per_file,
           " points at bytes ", e.offset, "-", e.offset + e.size, " outside the file's ", file_size,
           " bytes (truncated or damaged)");
  }
  return out;
}

std::string idx_time_dir(const std::optional<IdxTime>& time, int64_t t) {
  if (!time) return "";
  const std::string& p = time->pattern;
  // One integer conversion (%d, %0Nd, %Nd); anything else is not a time pattern we can expand.
  const size_t pct = p.find('%');
  if (pct == std::string::npos) return p;
  size_t i = pct + 1;
  while (i < p.size() && std::isdigit(static_cast<unsigned char>(p[i]))) ++i;
  if (i >= p.size() || p[i] != 'd' || p.find('%', i) != std::string::npos)
    fail(ErrorCode::kUnsupported, "time template '", p, "' is not supported (one %d conversion expected)");
  const std::string spec = p.substr(pct, i - pct) + "lld";
  char buf[64];
  std::snprintf(buf, sizeof buf, spec.c_str(), static_cast<long long>(t));
  return p.substr(0, pct) + buf + p.substr(i + 1);
}

std::string idx_block_file(const std::string& idx_dir, const std::string& tmpl, const std::string& time_dir,
                           uint64_t block, uint64_t blocks_per_file) {
  uint64_t address = block / blocks_per_file * blocks_per_file;
  // %0Nx groups, right to left.
  struct Group {
    size_t at, len;
    int width;
  };
  std::vector<Group> groups;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '%') continue;
    size_t j = i + 1;
    if (j < tmpl.size() && tmpl[j] == '0') ++j;
    size_t k = j;
    while (k < tmpl.size() && std::isdigit(static_cast<unsigned char>(tmpl[k]))) ++k;
    int width = 0;
    if (k == j || k >= tmpl.size() || tmpl[k] != 'x' || !parse_int(tmpl.substr(j, k - j), width) || width < 1 ||
        width > 16)
      fail(ErrorCode::kFormat, "filename template '", tmpl, "' has a conversion other than %0Nx");
    groups.push_back({i, k + 1 - i, width});
    i = k;
  }
  if (groups.empty()) fail(ErrorCode::kFormat, "filename template '", tmpl, "' has no %0Nx group");
  std::string out = tmpl;
  for (size_t g = groups.size(); g-- > 0;) {
    const Group& gr = groups[g];
    const uint64_t digits = gr.width >= 16 ? address : address & ((uint64_t{1} << (4 * gr.width)) - 1);
    address = gr.width >= 16 ? 0 : address >> (4 * gr.width);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*llx", gr.width, static_cast<unsigned long long>(digits));
    out.replace(gr.at, gr.len, buf);
  }
  // Address bits left: more groups of the leftmost width in front of it; then the time directory.
  const size_t lead = groups.front().at;
  std::string extra;
  while (address != 0) {
    const int w = groups.front().width;
    const uint64_t digits = w >= 16 ? address : address & ((uint64_t{1} << (4 * w)) - 1);
    address = w >= 16 ? 0 : address >> (4 * w);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*llx/", w, static_cast<unsigned long long>(digits));
    extra = buf + extra;
  }
  out.insert(lead, time_dir + extra);
  // Relative templates (with or without "./") are relative to the .idx file's directory, never to
  // the working directory.
  if (!out.empty() && out[0] == '/') return out;
  std::string dir = idx_dir.empty() ? std::string(".") : idx_dir;
  if (dir.back() != '/') dir += '/';
  return dir + (out.compare(0, 2, "./") == 0 ? out.substr(2) : out);
}

IdxHeader idx_write_header(const std::string& name, const std::array<uint64_t, 3>& dims, int ndims,
                           std::vector<IdxField> fields, const std::string& bits, int bits_per_block,
                           uint64_t blocks_per_file, bool zip, std::optional<IdxTime> time) {
  IdxHeader h;
  h.ndims = ndims;
  for (int a = 0; a < ndims; ++a) h.box_max[a] = static_cast<int64_t>(dims[a]) - 1;
  for (IdxField& f : fields) {
    f.compression = zip ? "zip" : "";
    f.hz_layout = true;
  }
  h.fields = std::move(fields);
  h.bits = bits;
  h.bits_per_block = bits_per_block;
  h.blocks_per_file = static_cast<int64_t>(blocks_per_file);
  h.filename_template = idx_default_template(name, static_cast<int>(bits.size()) - 1 - bits_per_block);
  h.time = std::move(time);
  return h;
}

bool idx_time_holds(const IdxTime& time, int64_t t) {
  // "*" is open; an integer bounds the range; anything else holds nothing.
  auto bound = [](const std::string& v, int64_t open) -> std::optional<int64_t> {
    if (v == "*") return open;
    try {
      size_t used = 0;
      const long long x = std::stoll(v, &used);
      if (used == v.size()) return static_cast<int64_t>(x);
    } catch (const std::exception&) {
    }
    return std::nullopt;
  };
  const auto first = bound(time.first, INT64_MIN), last = bound(time.last, INT64_MAX);
  return first && last && *first <= t && t <= *last;
}

std::string idx_default_template(const std::string& name, int block_bits) {
  std::string t = "./" + name + "/";
  for (int bits = block_bits; bits > 16; bits -= 8) t += "%02x/";
  return t + "%04x.bin";
}

void mark_absent_zip(std::vector<IdxBlockEntry>& entries) {
  uint64_t end = 0;
  for (const IdxBlockEntry& e : entries)
    if (e.present()) end = std::max(end, e.offset + e.size);
  // The running end at each absent slot: the end of the last present block before it, or the
  // first present block's offset when none precedes it.
  uint64_t run = 0;
  for (const IdxBlockEntry& e : entries)
    if (e.present()) {
      run = e.offset;
      break;
    }
  if (run == 0) run = end;
  for (IdxBlockEntry& e : entries) {
    if (e.present()) {
      run = e.offset + e.size;
    } else {
      e.offset = run;
      e.size = 0;
      e.flags = kIdxCodecZip;
    }
  }
}

}  // namespace lodex
