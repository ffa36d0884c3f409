import AdRulesCompiler
import Foundation

/// Where a report is written with `--output`.
///
/// A regular file this run owns, with no other hard link, and a new file are replaced whole: the report is written to a
/// new file beside it, synced, then renamed over it, so that the name holds either the old report or the new one in
/// full even when the run is killed (SIGKILL, a CI job's timeout, the OOM killer) midway; the new file takes the old
/// one's permissions, and a symlink's file is the one replaced. Any other regular file (another owner's, a file with
/// hard links, one in a directory this run cannot write) is written in place, so it stays the file it was: its
/// previous contents are kept until the new report is written in full, and when a write fails (a full disk, a
/// file-size limit) they are written back and the file cut to their length. A new file that cannot be written in full
/// is removed. A device, a FIFO or a socket is written through.
enum OutputFile {
    /// The system's reason for a failed call, in words.
    static func reason(_ code: Int32) -> String { code != 0 ? String(cString: strerror(code)).lowercased() : "the write failed" }

    /// The previous contents kept to restore, at most this many bytes (a larger file is written through).
    static let maxKept = 256 << 20

    /// 1 or 2 when `path` is the file standard output or standard error is (same device and inode), else nil.
    static func stream(_ path: String) -> Int32? {
        var target = stat()
        guard stat(path, &target) == 0 else { return nil }
        // A stream closed at the start is no file, though /dev/null now holds its number: only its own names lead to it
        // (and writing it then says it is closed), `-o /dev/null` does not.
        for fd: Int32 in [1, 2] where StandardStreams.closedAtStart.contains(fd) {
            if namesLedThrough(path).contains(where: names(ofDescriptor: fd).contains) { return fd }
        }
        for fd: Int32 in [1, 2] where !StandardStreams.closedAtStart.contains(fd) {
            var open = stat()
            if fstat(fd, &open) == 0, open.st_dev == target.st_dev, open.st_ino == target.st_ino { return fd }
        }
        return nil
    }

    /// Why `path` cannot take a report because nothing would read it, or nil. Standard input's file
    /// (`-o /dev/stdin < notes.txt`) is someone's input. Its pipe, FIFO or socket (`… | adrules … -o /dev/stdin`) is
    /// read by no one, this run included: the report would fill it and the write would wait for ever, or be lost once
    /// the run ends. A standard input closed by the caller holds /dev/null (``StandardStreams/closedAtStart``), where the
    /// report would be lost unsaid. The pseudo-terminal multiplexer (`/dev/ptmx`) opens a new terminal that nothing
    /// reads, with the same wait. Standard output or error named as a file is that stream, even when it is the very
    /// socket standard input reads (inetd, socat): never refused here.
    static func unreadOutputRefusal(_ path: String) -> String? {
        if StandardStreams.closedAtStart.contains(0), namesLedThrough(path).contains(where: names(ofDescriptor: 0).contains) {
            return "is standard input, which was closed when the run started"
        }
        guard stream(path) == nil else { return nil }
        var target = stat()
        guard stat(path, &target) == 0 else { return nil }
        var input = stat()
        if !StandardStreams.closedAtStart.contains(0), fstat(0, &input) == 0, input.st_dev == target.st_dev, input.st_ino == target.st_ino {
            switch input.st_mode & S_IFMT {
            case S_IFREG: return "is the file standard input reads"
            case S_IFIFO: return "is the pipe standard input comes from, which nothing reads"
            case S_IFSOCK: return "is the socket standard input comes from, which nothing reads"
            default: break
            }
        }
        if (target.st_mode & S_IFMT) == S_IFCHR {
            for multiplexer in ["/dev/ptmx", "/dev/pts/ptmx"] {
                var device = stat()
                if stat(multiplexer, &device) == 0, (device.st_mode & S_IFMT) == S_IFCHR, device.st_rdev == target.st_rdev {
                    return "opens a new pseudo-terminal, which nothing reads"
                }
            }
        }
        return nil
    }

    /// The names that lead to a standard descriptor: `/dev/stdin` (or stdout, stderr) and its entries under /dev/fd and /proc.
    static func names(ofDescriptor fd: Int32) -> [String] {
        [["/dev/stdin", "/dev/stdout", "/dev/stderr"][Int(fd)], "/dev/fd/\(fd)", "/proc/self/fd/\(fd)", "/proc/thread-self/fd/\(fd)", "/proc/\(getpid())/fd/\(fd)"]
    }

    /// The names a path leads through: itself, written plainly (`//dev/./stdout` is `/dev/stdout`), then the target of
    /// each symbolic link on the way (a link made to /dev/stdout), at most eight.
    static func namesLedThrough(_ path: String) -> [String] {
        func plain(_ path: String) -> String {
            let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
            return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
        }
        var names = [plain(path)]
        while names.count < 8, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: names[names.count - 1]) {
            let last = names[names.count - 1]
            names.append(plain(target.hasPrefix("/") ? target : PathText.parent(last) + "/" + target))
        }
        return names
    }

    /// Why a report could not be written to `path`, checked without writing (before a long run); nil when it looks
    /// writable. The write itself may still fail (a full disk), and says so then.
    static func unwritable(_ path: String) -> String? {
        // `-` is standard output.
        guard path != "-" else { return nil }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return reason(EISDIR) }
            if isMadeReadOnly(info) { return madeReadOnly }
            return access(path, W_OK) == 0 ? nil : reason(errno)
        }
        // A path through a file (ENOTDIR) or a link loop says so, as the write would; a new name ending in `/` is a
        // directory, which no report is written to.
        let code = errno
        guard code == ENOENT else { return reason(code) }
        guard !path.hasSuffix("/") else { return endsInSlash(path) }
        // A new file: its directory must exist and take it.
        let parent = PathText.parent(path)
        let directory = parent.isEmpty ? "." : parent
        guard stat(directory, &info) == 0 else { return reason(errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return reason(ENOTDIR) }
        return access(directory, W_OK | X_OK) == 0 ? nil : reason(errno)
    }

    /// A regular file no one may write (`chmod 444`): a report someone protected so. Root may write any file, and a run
    /// as root (a CI container's) would replace it: it is refused for every user, as docs/limits.md says.
    static func isMadeReadOnly(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG && (info.st_mode & 0o222) == 0 }

    static let madeReadOnly = "permission denied (the file is read-only: make it writable, or write elsewhere)"

    /// Why a new name ending in `/` takes no report (the system's "is a directory" for a directory that is not there).
    static func endsInSlash(_ path: String) -> String {
        let name = String(path.reversed().drop { $0 == "/" }.reversed())
        return "the name ends in /, which names a directory, and there is none: give a file's name" + (name.isEmpty ? "" : ", such as \(name)")
    }

    /// Writes `data` to `path`; nil when it worked, else why not.
    static func write(_ data: Data, to path: String) -> String? {
        var info = stat()
        let exists = stat(path, &info) == 0
        if !exists, path.hasSuffix("/") { return endsInSlash(path) }
        if exists, isMadeReadOnly(info) { return madeReadOnly }
        // Ctrl-C, a cancelled CI job (SIGTERM) or a closed terminal while a regular file is written would leave it cut
        // off (in place) or a stray file beside it (replaced whole): those signals are ignored until it is written (or
        // restored), and the run then finishes without acting on them. A FIFO or a device has nothing to keep, and a
        // write to one that blocks stays interruptible.
        let interrupts = exists && (info.st_mode & S_IFMT) != S_IFREG ? [] : [SIGINT, SIGTERM, SIGHUP]
        let dispositions = interrupts.map { signal($0, SIG_IGN) }
        defer { for (sig, disposition) in zip(interrupts, dispositions) { _ = signal(sig, disposition) } }
        switch replaceWhole(data, path) {
        case .replaced: return nil
        case .failed(let problem): return problem
        case .notApplicable: break
        }
        // A file too large to keep a copy of is emptied first (written through): never a mix of old and new.
        var isRegular = exists && (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) <= maxKept
        // Opened non-blocking, so that a FIFO no process reads is an error rather than a wait that never ends; the
        // writes then block as usual, so a slow reader gets the whole report. A regular file is opened for reading
        // too, to keep what it holds; one this run may write but not read is written through.
        var fd = isRegular ? open(path, O_RDWR | O_CLOEXEC, 0o644) : -1
        if fd < 0 {
            isRegular = false
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
        }
        // ENXIO is a FIFO with no reader when the path is a FIFO; on a device (`/dev/tty` with no terminal) it is the
        // device that is missing. A socket cannot be opened as a file, whatever the system calls it (Linux "no such
        // device or address", Darwin "operation not supported on socket"): said as one, with what to give instead.
        guard fd >= 0 else {
            let code = errno
            var target = stat()
            let kind = stat(path, &target) == 0 ? target.st_mode & S_IFMT : 0
            if code == ENXIO && kind == S_IFIFO { return "a FIFO that no process reads" }
            if kind == S_IFSOCK { return "it is a socket, which cannot be opened as a file: give the path of a file, or - for standard output" }
            return reason(code)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        // What the file held, to write back if the new report cannot be written in full.
        var previous: Data?
        if isRegular {
            previous = try? handle.readToEnd() ?? Data()
            if previous == nil { return "cannot read it to keep it: \(reason(errno))" }
        }
        do {
            if isRegular {
                try handle.seek(toOffset: 0)
                try handle.write(contentsOf: data)
                try handle.truncate(atOffset: UInt64(data.count))
            } else {
                try handle.write(contentsOf: data)
            }
            try handle.synchronize()
            return nil
        } catch {
            // The system's reason (Foundation's error on Linux names only a domain and a number).
            let problem = reason(errno)
            if let previous {
                // Back to what it held: these bytes fit where they were before.
                _ = try? handle.seek(toOffset: 0)
                _ = try? handle.write(contentsOf: previous)
                _ = try? handle.truncate(atOffset: UInt64(previous.count))
                _ = try? handle.synchronize()
            } else if !exists, let resolved = realpath(path, nil) {
                // A file this run created and could not fill is removed, not left cut off.
                unlink(resolved)
                free(resolved)
            }
            return problem
        }
    }

    /// What replacing a file whole came to.
    enum Replacement {
        case replaced
        case failed(String)
        /// Not a file to replace whole (a device, another owner's file, one with hard links, a directory this run cannot
        /// write in): written in place instead.
        case notApplicable
    }

    /// Writes `data` to a new file beside `path` (`.NAME.adrules-PID-N`), syncs it and renames it over the file `path`
    /// names (through its symlinks), keeping that file's permissions.
    static func replaceWhole(_ data: Data, _ path: String) -> Replacement {
        var info = stat()
        let target: String
        let mode: mode_t
        let exists = stat(path, &info) == 0
        if exists {
            // Replaced whole only when the run may write the file (a report made read-only stays protected: the write
            // in place is refused), its owner and group are this run's, and no other name shares it. A new file has
            // no extended attributes (an ACL, a security label, a tag), as `sed -i` and an editor's safe save leave
            // none: docs/limits.md says so.
            guard (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1, info.st_uid == geteuid(), info.st_gid == getegid(),
                access(path, W_OK) == 0, let resolved = realpath(path, nil)
            else { return .notApplicable }
            target = String(cString: resolved)
            free(resolved)
            mode = info.st_mode & 0o7777
        } else {
            // A new file; a dangling symlink is written through, where it points.
            var link = stat()
            guard errno == ENOENT, lstat(path, &link) != 0, !path.hasSuffix("/") else { return .notApplicable }
            target = path
            mode = 0o644
        }
        let parent = PathText.parent(target)
        let directory = parent.isEmpty ? "." : parent
        let name = (target as NSString).lastPathComponent
        var temporary = ""
        var fd: Int32 = -1
        for attempt in 0..<100 {
            temporary = directory + "/." + name + ".adrules-\(getpid())-\(attempt)"
            // The mode is what a new file gets (the umask applies); an existing file's is set exactly below.
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        // A directory this run cannot write in (or a name too long for a file beside it): written in place.
        guard fd >= 0 else { return .notApplicable }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        // An existing file's permissions exactly (the umask took bits off); a new file keeps what the umask left.
        guard !exists || fchmod(fd, mode) == 0 else {
            unlink(temporary)
            return .notApplicable
        }
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            // A full disk, a file-size limit: the file named is as it was.
            let problem = reason(errno)
            unlink(temporary)
            return .failed(problem)
        }
        // A file that cannot be renamed over (a bind mount, as a container's `-v report.json:/out/report.json`, is
        // busy) is written in place instead.
        guard rename(temporary, target) == 0 else {
            unlink(temporary)
            return .notApplicable
        }
        return .replaced
    }

}
