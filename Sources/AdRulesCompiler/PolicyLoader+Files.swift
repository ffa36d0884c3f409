import AdRules
import AdRulesYAML
import Foundation

/// Finding and reading rule files on disk: the directory walk, its limits, and reads that never block.
extension PolicyLoader {
    /// The most rule files one policy may have.
    public static let maxFiles = PolicyLimits.maxFiles
    /// The most bytes all files of one policy may hold together.
    public static let maxPolicyBytes = 24 * 1024 * 1024

    /// Why a path that does not exist as a file or directory cannot be read: a symbolic link that leads nowhere
    /// exists as a link, and "no such file" would send the user looking for it.
    /// - Returns: ``PolicyLoadError/unreadable(_:reason:)`` for such a link, else ``PolicyLoadError/notFound(_:)``.
    public static func missing(_ path: String) -> PolicyLoadError {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            // A path that cannot name a file at all is told why, as a report's path is (`-o`).
            switch errno {
            case ENAMETOOLONG: return .unreadable(path, reason: "file name too long")
            case ENOTDIR:
                // `policy.yaml/`: the last part is the file, named as a directory.
                var isDirectory: ObjCBool = false
                let bare = String(PathText.withoutTrailingSlashes(Substring(path)))
                if bare != path, FileManager.default.fileExists(atPath: bare, isDirectory: &isDirectory), !isDirectory.boolValue {
                    return .unreadable(path, reason: "names a file, not a directory: remove the trailing /")
                }
                return .unreadable(path, reason: "a part of the path before the last is a file, not a directory")
            case EACCES: return .unreadable(path, reason: "permission denied on a directory of the path")
            default: return .notFound(path)
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFLNK else { return .notFound(path) }
        return .unreadable(path, reason: "a symbolic link that leads to no file (its target is missing, or the links form a loop)")
    }

    /// Files below a path that satisfy a filter, sorted by path; a plain file is returned as it is.
    /// - Throws: ``PolicyLoadError`` when the path does not exist, or a directory below it cannot be listed
    ///   (rules are never dropped silently).
    public static func files(at path: String, where include: (String) -> Bool) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw missing(path)
        }
        guard isDirectory.boolValue else { return [path] }
        let base = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        // Where the walk may lead: a symlink below the directory that resolves outside it is refused, so that
        // a pull request cannot make CI read (and echo in diagnostics) a file elsewhere on the machine.
        let root = realPath(base)
        var found: [String] = []
        var pending = [base]
        var listed = 0
        // Each directory is read once, however many links lead to it: a link back up (`self -> ..`) is a loop, not
        // more rule files. Known by device and inode (one stat, where resolving a path 1,500 levels deep is slow).
        var visited = Set<FileSystemID>()
        if let id = fileSystemID(base) { visited.insert(id) }
        // A depth-first walk by hand (FileManager's enumerator skips unreadable directories without a word), each
        // directory's entries in sorted order: which of two links to one directory is kept does not depend on the
        // order the file system lists them in.
        while let directory = pending.popLast() {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                throw PolicyLoadError.unreadable(directory, reason: "the directory cannot be listed")
            }
            listed += names.count
            guard listed <= maxFiles * 10 else {
                throw PolicyLoadError.tooManyEntries(path, limit: maxFiles * 10)
            }
            let visible = names.filter { !$0.hasPrefix(".") }.sorted()
            // Two names that differ only in how an accent is written (`é` as one character or as `e` and a combining
            // mark) are two files on Linux and one text to Swift: every table keyed by path would take one for the
            // other (a suppression of one file hiding the other's finding, one directory's tests skipped).
            // Only where the two may be rule files or folders holding some: two notes (`café.txt`) are left alone.
            if let (first, second) = Self.namesEqualAsText(visible).first(where: { pair in
                [pair.0, pair.1].contains { include(directory + "/" + $0) || Self.isDirectory(directory + "/" + $0) }
            }) {
                throw PolicyLoadError.unreadable(
                    directory + "/" + first, reason: "it and \(second) are two names that differ only in how their accented letters are encoded (Unicode normalization: \(CodePoints.spelled(first)) and \(CodePoints.spelled(second))), which adrules cannot tell apart: rename one")
            }
            // Read from the directory's entries once, and only when a name is not UTF-8 (each such name asking it
            // again made a folder of 10,000 of them quadratic).
            var holdsFolderNotUTF8: Bool?
            for name in visible {
                let full = directory + "/" + name
                // A name that is not UTF-8 is listed with U+FFFD in it, and the file of that name, if one exists, is
                // another file (or the same one twice): refused, never read in its place, when it may be a rule file or
                // a directory holding some. Any other (`notes\xFF.txt`) is no rule file and is left alone.
                if name.unicodeScalars.contains("\u{FFFD}") {
                    if holdsFolderNotUTF8 == nil { holdsFolderNotUTF8 = Self.holdsDirectoryNotUTF8(directory) }
                    guard include(full) || holdsFolderNotUTF8 == true else { continue }
                    throw PolicyLoadError.unreadable(full, reason: "the name is not UTF-8 (or holds U+FFFD), which adrules cannot tell from another file's: rename it")
                }
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: full, isDirectory: &isDir) else {
                    // Listed but not reachable: a dangling or looping symlink, a name that is not UTF-8, a path
                    // longer than PATH_MAX. A rule file must never be dropped without a word.
                    var info = stat()
                    let listedOnly = lstat(full, &info) != 0
                    if listedOnly && errno == ENOENT {
                        // Nothing at the name any more: the files are changing while they are read (an editor's save,
                        // a checkout), and what was read may not be one policy.
                        throw PolicyLoadError.unreadable(full, reason: "the entry was listed and then was gone: it was removed or renamed while the directory was read; run again once the files stop changing")
                    }
                    if listedOnly || include(full) || name.unicodeScalars.contains("\u{FFFD}") {
                        throw PolicyLoadError.unreadable(full, reason: "the entry cannot be opened (a dangling or looping symlink, a name that is not UTF-8, or a path that is too long)")
                    }
                    continue
                }
                guard isDir.boolValue || include(full) else { continue }
                if isSymbolicLink(full) {
                    // A link whose target, or the directory's own path, cannot be resolved (longer than the system
                    // resolves) cannot be checked: refused, never read unchecked.
                    guard let root, let target = realPath(full) else {
                        throw PolicyLoadError.unreadable(
                            full, reason: "a symbolic link whose target cannot be resolved (its path, or the policy directory's, is longer than the system resolves), so adrules cannot check that it stays inside \(base): copy the file in, or name it on the command line")
                    }
                    guard isInside(target, root) else {
                        throw PolicyLoadError.unreadable(
                            full, reason: "a symbolic link to \(target), outside \(base): rule files must lie inside the policy directory (copy the file in, or name it on the command line)")
                    }
                }
                if isDir.boolValue {
                    if let id = fileSystemID(full) {
                        if visited.insert(id).inserted { pending.append(full) }
                    } else {
                        pending.append(full)
                    }
                } else {
                    found.append(full)
                }
            }
        }
        return readOnce(found.sorted())
    }

    /// The pairs of `sorted` names that are equal as Swift compares texts (canonical equivalence) but not byte for byte.
    /// Sorted, such names stand side by side.
    static func namesEqualAsText(_ sorted: [String]) -> [(String, String)] {
        zip(sorted, sorted.dropFirst()).filter { $0 == $1 && !$0.utf8.elementsEqual($1.utf8) }
    }

    /// Whether a directory holds a subdirectory whose name is not UTF-8 (which the listing shows with U+FFFD, and which
    /// may hold rule files): read from the directory's entries themselves, as bytes.
    static func holdsDirectoryNotUTF8(_ directory: String) -> Bool {
        guard let stream = opendir(directory) else { return true }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard String(validating: name, as: UTF8.self) == nil else { continue }
            let type = entry.pointee.d_type
            if type == UInt8(DT_DIR) { return true }
            if type == UInt8(DT_UNKNOWN) || type == UInt8(DT_LNK) {
                var info = stat()
                let path = Array(directory.utf8) + [UInt8(ascii: "/")] + name + [0]
                let found = path.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { text in text.baseAddress.map { stat($0, &info) } ?? -1 }
                }
                if found != 0 { return true }
                if (info.st_mode & S_IFMT) == S_IFDIR { return true }
            }
        }
        return false
    }

    /// The files of a walk, each file read once however many names lead to it (a symlink to another rule file of
    /// the policy, a hard link): one file under two names would define every id twice. The name kept is the file's
    /// own (not a symlink) when one is listed, else the first in sorted order; the order stays sorted.
    private static func readOnce(_ sorted: [String]) -> [String] {
        var kept: [FileSystemID: String] = [:]
        var dropped = Set<String>()
        for path in sorted {
            guard let id = fileSystemID(path) else { continue }
            guard let first = kept[id] else {
                kept[id] = path
                continue
            }
            if isSymbolicLink(first) && !isSymbolicLink(path) {
                kept[id] = path
                dropped.insert(first)
            } else {
                dropped.insert(path)
            }
        }
        return dropped.isEmpty ? sorted : sorted.filter { !dropped.contains($0) }
    }

    /// A file or directory as the file system knows it: device and inode.
    private struct FileSystemID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// A file's or directory's device and inode, links followed; nil when it cannot be read.
    private static func fileSystemID(_ path: String) -> FileSystemID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileSystemID(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// The absolute path with every symlink resolved; nil when it cannot be resolved.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether a resolved path is `root` or lies below it.
    static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    /// Reads a regular file's bytes, at most `limit + 1` of them, without blocking on FIFOs or devices.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the most bytes wanted; one more is read so the caller can tell the file is too large.
    /// - Throws: ``PolicyLoadError/unreadable(_:reason:)``, also for anything that is not a regular file.
    public static func readBytes(_ path: String, limit: Int = YAMLReader.maxBytes) throws -> [UInt8] {
        do {
            return [UInt8](try BoundedFile.readPrefix(path, count: limit + 1))
        } catch {
            switch error {
            case .notRegular(let mode): throw PolicyLoadError.unreadable(path, reason: BoundedFile.notRegular(mode))
            case .missing: throw PolicyLoadError.unreadable(path, reason: String(cString: strerror(ENOENT)).lowercased())
            case .system(_, let code): throw PolicyLoadError.unreadable(path, reason: code != 0 ? String(cString: strerror(code)).lowercased() : "the read failed")
            case .tooLarge: throw PolicyLoadError.unreadable(path, reason: "too large")
            case .nulInPath: throw PolicyLoadError.unreadable(path, reason: BoundedFile.nulInPathReason)
            }
        }
    }
}
