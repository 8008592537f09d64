import Foundation
import RippleCore  // LockedValue

/// Names the property behind a key path (`apples`), for ``TrackingEvent/propertyName`` and
/// RippleUI's render log (`Basket.apples changed`).
///
/// A key path to a stored property prints its name; a key path to a computed one — which is what
/// every property of an `@Observable` model is, once the macro has run — prints only its getter's
/// address (`\Basket.<computed 0x… (Int)>`), and the Observation module reports a change by key path
/// alone. So the getter's address is looked up in the symbol table of the binary it lives in
/// (ELF, read once per binary and kept; a stub that only jumps to the getter is followed), its
/// symbol demangled (`Module.Basket.apples.getter : Int`), and the property's name taken from it.
/// Results are cached per getter. Where any step fails (a stripped binary, another object format),
/// the answer is `nil` and the log says "property"; a failure to read a file is tried again on a
/// later change, a few times.
enum PropertyNames {
    /// The name of the property `keyPath` ends in, or `nil`. Cached per key path object (the key
    /// paths a model's accessors pass are the same object every time), so only the first change of a
    /// property pays for the lookup.
    static func name(of keyPath: AnyKeyPath) -> String? {
        let identity = ObjectIdentifier(keyPath)
        if let cached = byKeyPath.withLock({ $0[identity] }) { return cached.name }
        guard let lookup = lookUp(keyPath) else { return nil }  // not cached: tried again next time
        // The key path is kept with its name, so its identity cannot be reused by another object.
        byKeyPath.withLock { $0[identity] = Named(keyPath: keyPath, name: lookup.name) }
        return lookup.name
    }

    /// A key path with its name (key paths are immutable: sharing one between threads is safe).
    private struct Named: @unchecked Sendable {
        let keyPath: AnyKeyPath
        let name: String?
    }

    /// A lookup's answer; `nil` where this machine could not give one this time (nothing is
    /// cached then, so a later change tries again).
    private struct Lookup {
        let name: String?
    }

    private static let byKeyPath = LockedValue<[ObjectIdentifier: Named]>([:])

    private static func lookUp(_ keyPath: AnyKeyPath) -> Lookup? {
        let description = String(describing: keyPath)
        guard let marker = description.range(of: "<computed 0x") else {
            // A stored property's key path prints its name: `\Basket.apples`.
            let prefix = "\\" + String(describing: type(of: keyPath).rootType) + "."
            guard description.hasPrefix(prefix) else { return Lookup(name: nil) }
            let path = description.dropFirst(prefix.count)
            return Lookup(name: path.contains(".") || path.hasPrefix("<") || path.isEmpty ? nil : String(path))
        }
        // One computed component, and nothing after it.
        guard description.hasSuffix(">"), description[marker.upperBound...].range(of: "<computed") == nil else {
            return Lookup(name: nil)
        }
        let digits = description[marker.upperBound...].prefix { $0.isHexDigit }
        guard let address = UInt(digits, radix: 16) else { return Lookup(name: nil) }
        if let cached = byGetter.withLock({ $0[address] }) { return Lookup(name: cached) }
        guard let symbol = symbol(at: address) else { return nil }
        let name = symbol.name.flatMap(demangle).flatMap(propertyName(fromDemangled:))
        byGetter.withLock { $0[address] = .some(name) }
        return Lookup(name: name)
    }

    private static let byGetter = LockedValue<[UInt: String?]>([:])

    /// `apples` from `key path getter for Module.Basket.apples : Swift.Int : Module.Basket` (the
    /// thunk a computed key path calls) or from `Module.Basket.apples.getter : Swift.Int`.
    static func propertyName(fromDemangled symbol: String) -> String? {
        let path: Substring
        if let thunk = symbol.range(of: "key path getter for ") {
            let rest = symbol[thunk.upperBound...]
            path = rest[..<(rest.range(of: " : ")?.lowerBound ?? rest.endIndex)]
        } else if let getter = symbol.range(of: ".getter") {
            path = symbol[..<getter.lowerBound]
        } else {
            return nil
        }
        guard let last = path.split(separator: ".").last, !last.isEmpty else { return nil }
        return String(last)
    }

    // MARK: Symbol lookup (ELF)

    /// Why the latest lookup that could not be made failed (`nil` while none has): the tests show
    /// it when a machine cannot name properties.
    static var lastFailure: String? { failure.withLock { $0 } }

    private static let failure = LockedValue<String?>(nil)

    /// A symbol table's answer: the function's mangled name, or `nil` when the table has no function
    /// at that address.
    private struct FoundSymbol {
        let name: String?
    }

    /// The symbol of the function at `address` in this process, or `nil` when it could not be
    /// looked up this time: the loader says which file holds the address and where that file is
    /// loaded (`dladdr`, or `/proc/self/maps` where the loader has no answer), and the file's symbol
    /// table says which function it is.
    private static func symbol(at address: UInt) -> FoundSymbol? {
        guard let image = LoadedImage.containing(address) ?? LoadedImage.fromProcessMaps(containing: address) else {
            return fail("no loaded file contains 0x\(String(address, radix: 16))")
        }
        guard let table = symbolTable(of: image.path) else {
            return fail("no symbol table could be read from \(image.path)")
        }
        let bias = image.bias(in: table)
        // An optimized build may point the key path at an unnamed stub that only jumps to the
        // getter (seen with a sanitizer): followed for a few hops.
        var target = address
        for _ in 0..<3 {
            if let name = table.function(containing: target &- bias) { return FoundSymbol(name: name) }
            guard let next = jumpTarget(ofStubAt: target) else { break }
            target = next
        }
        return FoundSymbol(name: nil)
    }

    /// Where the code at `address` jumps, when it is a stub that does nothing else: an x86-64
    /// `jmp rel32`, or an arm64 `b`, each optionally inside an empty frame set-up.
    private static func jumpTarget(ofStubAt address: UInt) -> UInt? {
        guard let code = UnsafePointer<UInt8>(bitPattern: address) else { return nil }
        func word(_ offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(code[offset + $1]) << (8 * UInt32($1)) }
        }
        #if arch(x86_64)
        // push %rbp; mov %rsp, %rbp; pop %rbp
        let emptyFrame: [UInt8] = [0x55, 0x48, 0x89, 0xE5, 0x5D]
        let start = emptyFrame.indices.allSatisfy { code[$0] == emptyFrame[$0] } ? emptyFrame.count : 0
        guard code[start] == 0xE9 else { return nil }  // jmp rel32
        let displacement = Int(Int32(bitPattern: word(start + 1)))
        return UInt(bitPattern: Int(bitPattern: address) &+ start &+ 5 &+ displacement)
        #elseif arch(arm64)
        // stp x29, x30, [sp, #-16]!; mov x29, sp; ldp x29, x30, [sp], #16
        let emptyFrame: [UInt32] = [0xA9BF_7BFD, 0x9100_03FD, 0xA8C1_7BFD]
        let start = emptyFrame.indices.allSatisfy { word(4 * $0) == emptyFrame[$0] } ? 4 * emptyFrame.count : 0
        let instruction = word(start)
        guard instruction & 0xFC00_0000 == 0x1400_0000 else { return nil }  // b imm26
        let displacement = Int(Int32(bitPattern: instruction << 6) >> 6) * 4
        return UInt(bitPattern: Int(bitPattern: address) &+ start &+ displacement)
        #else
        return nil
        #endif
    }

    private static func fail(_ reason: String) -> FoundSymbol? {
        failure.withLock { $0 = reason }
        return nil
    }

    /// The tables read so far, and how often reading each file failed (a failure is retried a few
    /// times: one interrupted read must not cost every later change its name).
    private struct Tables {
        var read: [String: SymbolTable] = [:]
        var failures: [String: Int] = [:]
    }

    private static let tables = LockedValue(Tables())

    private static func symbolTable(of path: String) -> SymbolTable? {
        let known = tables.withLock { tables -> SymbolTable?? in
            if let table = tables.read[path] { return .some(table) }
            return tables.failures[path, default: 0] >= 3 ? .some(nil) : nil
        }
        if let known { return known }
        let table = SymbolTable(path: path)
        tables.withLock { tables in
            if let table { tables.read[path] = table } else { tables.failures[path, default: 0] += 1 }
        }
        return table
    }

    // MARK: Demangling

    @_silgen_name("swift_demangle")
    private static func swiftDemangle(
        _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: UInt, _ outputBuffer: UnsafeMutablePointer<CChar>?,
        _ outputBufferSize: UnsafeMutablePointer<UInt>?, _ flags: UInt32
    ) -> UnsafeMutablePointer<CChar>?

    private static func demangle(_ symbol: String) -> String? {
        symbol.withCString { mangled in
            guard let demangled = swiftDemangle(mangled, UInt(strlen(mangled)), nil, nil, 0) else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }
}

/// A file the loader mapped into this process (the executable or a shared library) and where.
private struct LoadedImage {
    let path: String
    /// Where the file's first loaded segment starts in memory (with `dladdr`), or where the mapping
    /// holding the address starts (from `/proc/self/maps`, with `fileOffset`).
    let start: UInt
    /// From `/proc/self/maps`: the file offset the mapping at `start` begins at. `nil` with
    /// `dladdr`, whose `start` is the first segment's.
    let fileOffset: UInt?

    /// How far the file was moved when loaded: its addresses plus the bias are memory addresses.
    func bias(in table: SymbolTable) -> UInt {
        if let fileOffset, let segment = table.segments.first(where: { $0.contains(fileOffset: fileOffset) }) {
            return start &- (segment.address &+ (fileOffset &- segment.fileOffset))
        }
        // The loader maps the first segment from its page-aligned start.
        let first = table.segments.map(\.address).min() ?? 0
        return start &- (first & ~UInt(pageSize &- 1))
    }

    /// Asks the loader (`dladdr`). For the main program it names the path the program was started
    /// by, which may be relative: the kernel's link to the running program is used then.
    static func containing(_ address: UInt) -> LoadedImage? {
        #if os(Linux)
        var info = LoaderInfo()
        guard let pointer = UnsafeRawPointer(bitPattern: address), loaderAddressInfo(pointer, &info) != 0,
            let file = info.fileName, let base = info.fileBase
        else { return nil }
        var path = String(cString: file)
        if !path.hasPrefix("/") {
            path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? path
        }
        guard !path.isEmpty else { return nil }
        return LoadedImage(path: path, start: UInt(bitPattern: base), fileOffset: nil)
        #else
        return nil
        #endif
    }

    /// Reads `/proc/self/maps` for the mapping that holds `address`.
    static func fromProcessMaps(containing address: UInt) -> LoadedImage? {
        // Read to the end through a file handle: `/proc` files report no size, and reading one as a
        // string stops after the first few kilobytes (a sanitizer's process has thousands of lines).
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
        defer { try? handle.close() }
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6 else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                start <= address, address < end, let offset = UInt(fields[2], radix: 16)
            else { continue }
            let path = fields[5...].joined(separator: " ")
            guard path.hasPrefix("/") else { return nil }
            return LoadedImage(path: path, start: start, fileOffset: offset)
        }
        return nil
    }
}

private let pageSize = UInt(max(sysconf(Int32(_SC_PAGESIZE)), 4096))

#if os(Linux)
/// `Dl_info` from `<dlfcn.h>` (which Swift's Glibc module declares only for GNU sources).
private struct LoaderInfo {
    var fileName: UnsafePointer<CChar>? = nil
    var fileBase: UnsafeMutableRawPointer? = nil
    var symbolName: UnsafePointer<CChar>? = nil
    var symbolAddress: UnsafeMutableRawPointer? = nil
}

@_silgen_name("dladdr")
private func loaderAddressInfo(_ address: UnsafeRawPointer, _ info: UnsafeMutablePointer<LoaderInfo>) -> Int32
#endif

/// The getters and key path getters in one ELF file's symbol tables (`.symtab`, and `.dynsym`,
/// which is all a stripped file keeps), and its loaded segments.
private struct SymbolTable: Sendable {
    struct Function: Sendable {
        let start: UInt
        let size: UInt
        let name: String
    }

    struct Segment: Sendable {
        let fileOffset: UInt
        let fileSize: UInt
        let address: UInt

        func contains(fileOffset offset: UInt) -> Bool {
            fileOffset <= offset && offset < fileOffset + max(fileSize, 1)
        }
    }

    /// Sorted by start address.
    let functions: [Function]
    let segments: [Segment]

    /// Reads the file through a read-only mapping of it (no copy of a binary of tens of megabytes).
    init?(path: String) {
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 64,
            let mapping = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED
        else {
            close(descriptor)
            return nil
        }
        close(descriptor)
        defer { munmap(mapping, Int(status.st_size)) }
        guard let parsed = Self.parse(UnsafeRawBufferPointer(start: mapping, count: Int(status.st_size))) else {
            return nil
        }
        (functions, segments) = parsed
    }

    private static func parse(_ file: UnsafeRawBufferPointer) -> ([Function], [Segment])? {
        func read<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T? {
            guard offset >= 0, offset + MemoryLayout<T>.size <= file.count else { return nil }
            return T(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        guard file[0] == 0x7F, file[1] == 0x45, file[2] == 0x4C, file[3] == 0x46, file[4] == 2, file[5] == 1 else {
            return nil  // not a little-endian 64-bit ELF file
        }
        guard let programOffset = read(0x20, UInt64.self), let sectionOffset = read(0x28, UInt64.self),
            let programSize = read(0x36, UInt16.self), let programCount = read(0x38, UInt16.self),
            let sectionSize = read(0x3A, UInt16.self), let sectionCount = read(0x3C, UInt16.self)
        else { return nil }

        var segments: [Segment] = []
        for index in 0..<Int(programCount) {
            let header = Int(programOffset) + index * Int(programSize)
            guard let type = read(header, UInt32.self), type == 1,  // PT_LOAD
                let offset = read(header + 0x08, UInt64.self), let address = read(header + 0x10, UInt64.self),
                let size = read(header + 0x20, UInt64.self)
            else { continue }
            segments.append(Segment(fileOffset: UInt(offset), fileSize: UInt(size), address: UInt(address)))
        }

        var functions: [Function] = []
        for index in 0..<Int(sectionCount) {
            let header = Int(sectionOffset) + index * Int(sectionSize)
            guard let type = read(header + 0x04, UInt32.self), type == 2 || type == 11,  // SYMTAB, DYNSYM
                let offset = read(header + 0x18, UInt64.self), let size = read(header + 0x20, UInt64.self),
                let link = read(header + 0x28, UInt32.self), let entrySize = read(header + 0x38, UInt64.self),
                entrySize >= 24,
                let strings = read(Int(sectionOffset) + Int(link) * Int(sectionSize) + 0x18, UInt64.self)
            else { continue }
            var entry = Int(offset)
            while entry + Int(entrySize) <= Int(offset + size) {
                defer { entry += Int(entrySize) }
                guard let nameOffset = read(entry, UInt32.self), file[entry + 4] & 0xF == 2,  // STT_FUNC
                    let value = read(entry + 8, UInt64.self), value != 0, let length = read(entry + 16, UInt64.self)
                else { continue }
                let start = Int(strings) + Int(nameOffset)
                var end = start
                while end < file.count, file[end] != 0 { end += 1 }
                // Only getters (`…vg`) and key path getter thunks (`…TK`) name a property: skip the
                // rest while reading.
                guard end - start > 2,
                    (file[end - 2] == UInt8(ascii: "v") && file[end - 1] == UInt8(ascii: "g"))
                        || (file[end - 2] == UInt8(ascii: "T") && file[end - 1] == UInt8(ascii: "K"))
                else { continue }
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: file[start..<end]), as: UTF8.self)
                functions.append(Function(start: UInt(value), size: UInt(length), name: name))
            }
        }
        guard !functions.isEmpty else { return nil }
        return (functions.sorted { $0.start < $1.start }, segments)
    }

    /// The mangled name of the getter that contains `address` (an address in the file's terms).
    func function(containing address: UInt) -> String? {
        var low = 0
        var high = functions.count
        while low < high {
            let middle = (low + high) / 2
            if functions[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let candidate = functions[low - 1]
        return address < candidate.start + max(candidate.size, 1) ? candidate.name : nil
    }
}
