import Foundation
import Synchronization

/// Names the property behind a key path for the render log (`Basket.apples changed`).
///
/// A key path to a stored property prints its name; a key path to a computed one — which is what
/// every property of an `@Observable` model is, once the macro has run — prints only its getter's
/// address (`\Basket.<computed 0x… (Int)>`), and the Observation module reports a change by key path
/// alone. So the getter's address is looked up in the symbol table of the binary it lives in
/// (ELF, read once per binary and kept), its symbol demangled (`Module.Basket.apples.getter : Int`),
/// and the property's name taken from it. Results are cached per getter. Where any step fails (a
/// stripped binary, another object format), the answer is `nil` and the log says "property".
enum PropertyNames {
    /// The name of the property `keyPath` ends in, or `nil`. Cached per key path object (the key
    /// paths a model's accessors pass are the same object every time), so only the first change of a
    /// property pays for the lookup.
    static func name(of keyPath: AnyKeyPath) -> String? {
        let identity = ObjectIdentifier(keyPath)
        if let cached = byKeyPath.withLock({ $0[identity] }) { return cached.name }
        let name = lookUp(keyPath)
        // The key path is kept with its name, so its identity cannot be reused by another object.
        let entry = Named(keyPath: keyPath, name: name)
        byKeyPath.withLock { $0[identity] = entry }
        return name
    }

    /// A key path with its name (key paths are immutable: sharing one between threads is safe).
    private struct Named: @unchecked Sendable {
        let keyPath: AnyKeyPath
        let name: String?
    }

    private static let byKeyPath = Mutex<[ObjectIdentifier: Named]>([:])

    private static func lookUp(_ keyPath: AnyKeyPath) -> String? {
        let description = String(describing: keyPath)
        guard let marker = description.range(of: "<computed 0x") else {
            // A stored property's key path prints its name: `\Basket.apples`.
            let prefix = "\\" + String(describing: type(of: keyPath).rootType) + "."
            guard description.hasPrefix(prefix) else { return nil }
            let path = description.dropFirst(prefix.count)
            return path.contains(".") || path.hasPrefix("<") || path.isEmpty ? nil : String(path)
        }
        let digits = description[marker.upperBound...].prefix { $0.isHexDigit }
        guard let address = UInt(digits, radix: 16) else { return nil }
        if let cached = byGetter.withLock({ $0[address] }) { return cached }
        let name = symbol(at: address).flatMap(demangle).flatMap(propertyName(fromDemangled:))
        byGetter.withLock { $0[address] = name }
        return name
    }

    private static let byGetter = Mutex<[UInt: String?]>([:])

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

    /// The symbol of the function at `address` in this process.
    private static func symbol(at address: UInt) -> String? {
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
            guard path.hasPrefix("/"), let table = symbolTable(of: path) else { return nil }
            return table.symbol(at: address, mappingStart: start, fileOffset: offset)
        }
        return nil
    }

    private static let tables = Mutex<[String: SymbolTable?]>([:])

    private static func symbolTable(of path: String) -> SymbolTable? {
        if let known = tables.withLock({ $0[path] }) { return known }
        let table = SymbolTable(path: path)
        tables.withLock { $0[path] = table }
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

/// The function symbols of one ELF file (its `.symtab`, or `.dynsym` when stripped), with the
/// program headers that map file offsets to addresses.
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
    }

    /// Sorted by start address.
    let functions: [Function]
    let segments: [Segment]

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path), data.count > 64 else { return nil }
        let bytes = [UInt8](data)
        guard bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46, bytes[4] == 2, bytes[5] == 1 else {
            return nil  // not a little-endian 64-bit ELF file
        }
        func read<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T? {
            guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { return nil }
            var value: T = 0
            for index in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (8 * index) }
            return value
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

        var symbolSections: [(offset: Int, size: Int, entrySize: Int, strings: Int)] = []
        for index in 0..<Int(sectionCount) {
            let header = Int(sectionOffset) + index * Int(sectionSize)
            guard let type = read(header + 0x04, UInt32.self), type == 2 || type == 11,  // SYMTAB, DYNSYM
                let offset = read(header + 0x18, UInt64.self), let size = read(header + 0x20, UInt64.self),
                let link = read(header + 0x28, UInt32.self), let entrySize = read(header + 0x38, UInt64.self),
                entrySize >= 24
            else { continue }
            let stringsHeader = Int(sectionOffset) + Int(link) * Int(sectionSize)
            guard let strings = read(stringsHeader + 0x18, UInt64.self) else { continue }
            symbolSections.append((Int(offset), Int(size), Int(entrySize), Int(strings)))
        }

        var functions: [Function] = []
        for section in symbolSections {
            var entry = section.offset
            while entry + section.entrySize <= section.offset + section.size {
                defer { entry += section.entrySize }
                guard let nameOffset = read(entry, UInt32.self), bytes[entry + 4] & 0xF == 2,  // STT_FUNC
                    let value = read(entry + 8, UInt64.self), value != 0, let size = read(entry + 16, UInt64.self)
                else { continue }
                var end = section.strings + Int(nameOffset)
                let start = end
                while end < bytes.count, bytes[end] != 0 { end += 1 }
                guard end > start else { continue }
                // Only getters (`…vg`) and key path getter thunks (`…TK`) name a property: skip the
                // rest while reading.
                let last = bytes[end - 1]
                let previous = end - start > 1 ? bytes[end - 2] : 0
                guard (previous == UInt8(ascii: "v") && last == UInt8(ascii: "g"))
                    || (previous == UInt8(ascii: "T") && last == UInt8(ascii: "K"))
                else { continue }
                functions.append(
                    Function(start: UInt(value), size: UInt(size), name: String(decoding: bytes[start..<end], as: UTF8.self)))
            }
        }
        guard !functions.isEmpty else { return nil }
        self.functions = functions.sorted { $0.start < $1.start }
        self.segments = segments
    }

    /// The function containing `address`, given where the mapping that contains it starts in memory
    /// and in the file.
    func symbol(at address: UInt, mappingStart: UInt, fileOffset: UInt) -> String? {
        guard
            let segment = segments.first(where: {
                $0.fileOffset <= fileOffset && fileOffset < $0.fileOffset + max($0.fileSize, 1)
            })
        else { return nil }
        let bias = mappingStart &- (segment.address &+ (fileOffset &- segment.fileOffset))
        let target = address &- bias
        var low = 0
        var high = functions.count
        while low < high {
            let middle = (low + high) / 2
            if functions[middle].start <= target { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let candidate = functions[low - 1]
        guard target < candidate.start + max(candidate.size, 1) else { return nil }
        return candidate.name
    }
}
