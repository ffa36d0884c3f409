import Foundation

/// Reads a regular file of bounded size without ever blocking: what the runtime reads from disk (a compiled policy,
/// the ledger) may be a FIFO, a device or a directory by mistake or by malice, and an app's start-up must not hang on
/// one, nor read gigabytes.
package enum BoundedFile {
    enum Failure: Error, Equatable {
        /// Nothing at the path.
        case missing
        /// It cannot be opened or read, or is not a regular file: the reason, naming the path.
        case unreadable(String)
        /// Larger than the limit: its size, nil when it grew past the limit while read.
        case tooLarge(Int?)
    }

    /// The file's bytes.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the most bytes accepted.
    static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        // O_NONBLOCK: opening a FIFO with no writer returns at once, and so does reading one.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            // A socket cannot be opened at all ("no such device or address"): say what it is instead.
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { throw .unreadable("\(path) is \(notRegular(info.st_mode))") }
            throw .unreadable("cannot open \(path): \(errorText(code))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable("cannot stat \(path): \(errorText(errno))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable("\(path) is \(notRegular(info.st_mode))") }
        guard info.st_size <= limit else { throw .tooLarge(Int(info.st_size)) }
        let data: Data
        do {
            // One byte over the limit tells a file that grew since fstat from one that fits.
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw .unreadable("cannot read \(path): \(error.localizedDescription)")
        }
        guard data.count <= limit else { throw .tooLarge(nil) }
        return data
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

    static func errorText(_ code: Int32) -> String { "\(String(cString: strerror(code))) (errno \(code))" }
}
