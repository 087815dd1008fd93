// Every file vklab writes is written whole or not at all: into a temporary file beside its
// target (".NAME.PID.N.partial", on the same file system, created new), checked after close (a full disk
// fails the write or the close), then renamed over the target. A failure throws and leaves
// the previous file as it was; a process killed half-way leaves at most the temporary file.
// A folder of files (--dump) is written into a temporary folder and swapped in whole.
#pragma once
#include <filesystem>
#include <string_view>

namespace io {

// Throws std::runtime_error "PATH: cannot be written (why)".
void write_file(const std::filesystem::path& path, std::string_view bytes);

// For a writer that makes the file itself (a video muxer): it writes into temporary(); commit()
// renames it over the target. Without commit() the temporary file is removed.
class OutputFile {
 public:
  explicit OutputFile(std::filesystem::path path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  const std::filesystem::path& path() const { return path_; }
  const std::filesystem::path& temporary() const { return temporary_; }
  void commit();  // throws as write_file does

 private:
  std::filesystem::path path_, temporary_;
  bool done_ = false;
};

// A folder filled through folder() (a temporary one beside the target); commit() puts it in
// the target's place in one step, the previous folder removed after, where the previous one
// holds only files the new one has too (a previous dump); otherwise (the user's own files are
// there) the new files are moved in one by one, params.json last, and the rest is kept.
// Without commit() the temporary folder is removed.
class OutputFolder {
 public:
  explicit OutputFolder(std::filesystem::path path);
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  const std::filesystem::path& folder() const { return temporary_; }
  void commit();

 private:
  std::filesystem::path path_, temporary_;
  bool done_ = false;
};

}  // namespace io
