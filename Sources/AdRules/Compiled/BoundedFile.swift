import Foundation

/// Reads a regular file without ever blocking: what the tools and the runtime read from disk (rule files, a compiled
/// policy, the ledger) may be a FIFO, a device or a directory by mistake or by malice, and neither a lint nor an app's
/// start-up may hang on one, nor read gigabytes.
package enum BoundedFile {
    package enum Failure: Error, Equatable {
        /// Nothing at the path.
        case missing
        /// Something that is not a regular file (its `st_mode`): ``notRegular(_:)`` says what.
        case notRegular(mode_t)
        /// A system call failed (`open`, `stat`, `read`), with its errno (0 when the read failed without one).
        case system(call: String, code: Int32)
        /// Larger than the limit: its size, nil when it grew past the limit while read.
        case tooLarge(Int?)
        /// A path holding a NUL character, where the system would end it (and name another file).
        case nulInPath
    }

    /// The file's bytes, at most `limit` of them; a larger file is refused for its size.
    package static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        let data = try readPrefix(path, count: limit + 1) { size throws(Failure) in
            if size > limit { throw .tooLarge(size) }
        }
        // One byte over the limit tells a file that grew since fstat from one that fits.
        guard data.count <= limit else { throw .tooLarge(nil) }
        return data
    }

    /// The first `count` bytes of a regular file (what a caller that tells a too-large file by one byte too many
    /// reads), after `checkSize` has seen its size.
    package static func readPrefix(_ path: String, count: Int, checkSize: (Int) throws(Failure) -> Void = { _ in }) throws(Failure) -> Data {
        // The system reads a path up to its first NUL: "policy.json\0.bak" would name policy.json.
        guard !path.utf8.contains(0) else { throw .nulInPath }
        // O_NONBLOCK: opening a FIFO with no writer returns at once, and so does reading one.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            // A socket cannot be opened at all ("no such device or address"): say what it is instead.
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { throw .notRegular(info.st_mode) }
            throw .system(call: "open", code: code)
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(call: "stat", code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular(info.st_mode) }
        try checkSize(Int(info.st_size))
        do {
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            // The system's reason (Foundation's error on Linux names only a domain and a number).
            throw .system(call: "read", code: errno)
        }
    }

    /// "not a regular file (a socket)": what a path that is no file of text is.
    package static func notRegular(_ mode: mode_t) -> String {
        let kind: String
        switch mode & S_IFMT {
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        case S_IFDIR: kind = "a directory"
        default: kind = "a FIFO, device, socket or directory"
        }
        return "not a regular file (\(kind))"
    }

    /// What the runtime says of a file it could not read, naming it: "cannot open PATH: … (errno N)", "PATH is not a
    /// regular file (a FIFO)".
    static func reason(_ failure: Failure, path: String) -> String {
        switch failure {
        case .missing: return "there is no file at \(path)"
        case .notRegular(let mode): return "\(path) is \(notRegular(mode))"
        case .system(let call, let code): return "cannot \(call) \(path): \(code != 0 ? errorText(code) : "the read failed")"
        case .tooLarge(let size?): return "\(path) is too large: \(size) bytes"
        case .tooLarge(nil): return "\(path) is too large"
        case .nulInPath: return nulInPathReason
        }
    }

    /// Why a path holding a NUL is not read (the path itself is not echoed: the NUL would end the line a log shows).
    package static let nulInPathReason = "the path holds a NUL character, where the system would end it: give the path of a file without one"

    static func errorText(_ code: Int32) -> String { "\(String(cString: strerror(code))) (errno \(code))" }
}
