@_spi(Reflection) import Swift

#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a class keeps its `@Published` storage: byte offsets of its `Published<T>` fields,
/// superclasses' included, in declaration order. Computed once per class (once per generic
/// specialization) by reading the runtime's field descriptors — never per object or per access.
struct ObservableLayout: Sendable {
    var publishedOffsets: [Int]
    /// The properties' names, in the same order (`apples` for the field `_apples`).
    var publishedNames: [String]

    /// The layout of `object`'s class.
    init(of object: AnyObject) {
        guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) else {
            self.init(mirroring: object)
            return
        }
        self.init(fieldsOf: type(of: object))
    }

    /// The layout read from the runtime's field descriptors (`_forEachField`, in the Swift runtime
    /// of macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2 and later, and everywhere else).
    @available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
    init(fieldsOf type: AnyClass) {
        var offsets: [Int] = []
        var names: [String] = []
        // `.classType` (raw value 1), spelled out: the stdlib declares it as a mutable static.
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { name, offset, fieldType, _ in
            if fieldType is any PublishedField.Type {
                offsets.append(offset)
                let field = String(cString: name)
                names.append(field.hasPrefix("_") ? String(field.dropFirst()) : field)
            }
            return true
        }
        publishedOffsets = offsets
        publishedNames = names
    }

    /// The layout found without `_forEachField` (Apple systems before macOS 10.15.4 / iOS 13.4):
    /// `object`'s mirror lists its `@Published` fields and their storage boxes, and each box's
    /// reference is looked for in the object's memory, which gives the field's offset (a
    /// `Published<T>` is its box reference; it is stored inline in the object, so the search ends
    /// inside it). A class with a custom mirror (`CustomReflectable`) hides its fields from this.
    init(mirroring object: AnyObject) {
        var boxes: [(name: String, box: UnsafeRawPointer)] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let level = mirror {
            for child in level.children {
                guard let field = child.value as? any PublishedField, let label = child.label else { continue }
                let box = UnsafeRawPointer(Unmanaged.passUnretained(field.storageBox).toOpaque())
                boxes.append((label.hasPrefix("_") ? String(label.dropFirst()) : label, box))
            }
            mirror = level.superclassMirror
        }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        let word = MemoryLayout<UnsafeRawPointer>.size
        let size = allocationSize(of: base)
        var found: [(offset: Int, name: String)] = []
        for (name, box) in boxes {
            // After the object's header (its class and its reference counts), within the object.
            var offset = 2 * word
            while offset + word <= size, base.load(fromByteOffset: offset, as: UnsafeRawPointer.self) != box {
                offset += word
            }
            require(offset + word <= size, "@Published property '\(name)' of \(type(of: object)) not found in the object")
            found.append((offset, name))
        }
        found.sort { $0.offset < $1.offset }
        publishedOffsets = found.map(\.offset)
        publishedNames = found.map(\.name)
    }
}

#if os(Linux) || os(Android)
/// glibc's and Bionic's `malloc_usable_size` (declared in `malloc.h`, which the C library's module
/// does not include).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
#endif

/// The size of the heap block at `pointer` (an object's allocation), which bounds a search of it.
private func allocationSize(of pointer: UnsafeRawPointer) -> Int {
    #if canImport(Darwin)
    return Int(malloc_size(pointer))
    #elseif os(Linux) || os(Android)
    return mallocUsableSize(UnsafeMutableRawPointer(mutating: pointer))
    #else
    return 1 << 16
    #endif
}

/// The name of the `@Published` property of `object` whose storage is `box` (found once per box,
/// on its first tracked read).
func publishedPropertyName(of object: AnyObject, box: PublishedBoxBase) -> String? {
    let layout = LayoutCache.layout(of: object)
    for (offset, name) in zip(layout.publishedOffsets, layout.publishedNames)
    where unmanagedPublishedBox(of: object, at: offset).toOpaque() == Unmanaged.passUnretained(box).toOpaque() {
        return name
    }
    return nil
}

/// A read-mostly map from class to layout. Readers take no lock: they load the current table with
/// one acquiring atomic load and probe it. A writer (the first access for a new class) builds a
/// bigger copy under a lock and publishes it. Old tables are kept alive in `retired` (there is one
/// per class ever seen, so this is bounded), which is what makes the lock-free read safe.
enum LayoutCache {
    final class Table: Sendable {
        let keys: [UInt]  // 0 = empty slot
        let layouts: [ObservableLayout?]
        /// The first `@Published` offset per slot (-1: none): the whole of what the hot path needs.
        let firstOffsets: [Int]
        let count: Int

        init(capacity: Int, entries: [(UInt, ObservableLayout)]) {
            var keys = [UInt](repeating: 0, count: capacity)
            var layouts = [ObservableLayout?](repeating: nil, count: capacity)
            var firstOffsets = [Int](repeating: -1, count: capacity)
            for (key, layout) in entries {
                var slot = Table.slot(for: key, capacity: capacity)
                while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                keys[slot] = key
                layouts[slot] = layout
                firstOffsets[slot] = layout.publishedOffsets.first ?? -1
            }
            self.keys = keys
            self.layouts = layouts
            self.firstOffsets = firstOffsets
            self.count = entries.count
        }

        static func slot(for key: UInt, capacity: Int) -> Int {
            // Metadata pointers are 16-byte aligned; mix the high bits in.
            let mixed = (key >> 4) ^ (key >> 17)
            return Int(truncatingIfNeeded: mixed) & (capacity - 1)
        }

        /// The slot holding `key`, or `nil`.
        func slot(of key: UInt) -> Int? {
            let capacity = keys.count
            guard capacity > 0 else { return nil }
            var slot = Table.slot(for: key, capacity: capacity)
            while true {
                let candidate = keys[slot]
                if candidate == key { return slot }
                if candidate == 0 { return nil }
                slot = (slot + 1) & (capacity - 1)
            }
        }

        func find(_ key: UInt) -> ObservableLayout? {
            slot(of: key).flatMap { layouts[$0] }
        }

        var entries: [(UInt, ObservableLayout)] {
            zip(keys, layouts).compactMap { key, layout in layout.map { (key, $0) } }
        }
    }

    private static let current = AtomicCell<Unmanaged<Table>?>(nil)
    private static let writer = LockedValue<[Table]>([])  // the lock for writers, and every table ever published

    /// The offset of the first `@Published` field of `type` (-1: none) — the hot path: one atomic
    /// load and a probe, no reference counting.
    static func firstPublishedOffset(of object: AnyObject) -> Int {
        let key = UInt(bitPattern: ObjectIdentifier(type(of: object)))
        if let table = current.load(ordering: .acquiring) {
            let offset = table._withUnsafeGuaranteedRef { table -> Int? in
                table.slot(of: key).map { table.firstOffsets[$0] }
            }
            if let offset { return offset }
        }
        return insert(object, key: key).publishedOffsets.first ?? -1
    }

    /// The layout of `object`'s class, computing and caching it on first use.
    static func layout(of object: AnyObject) -> ObservableLayout {
        let key = UInt(bitPattern: ObjectIdentifier(type(of: object)))
        if let table = current.load(ordering: .acquiring),
            let layout = table._withUnsafeGuaranteedRef({ $0.find(key) })
        {
            return layout
        }
        return insert(object, key: key)
    }

    private static func insert(_ object: AnyObject, key: UInt) -> ObservableLayout {
        writer.withLock { retired in
            let existing = current.load(ordering: .acquiring)?.takeUnretainedValue()
            if let layout = existing?.find(key) { return layout }
            let layout = ObservableLayout(of: object)
            var entries = existing?.entries ?? []
            entries.append((key, layout))
            var capacity = 16
            while capacity < entries.count * 2 { capacity *= 2 }
            let table = Table(capacity: capacity, entries: entries)
            retired.append(table)
            current.store(Unmanaged.passUnretained(table), ordering: .releasing)
            return layout
        }
    }

    #if RIPPLE_EXPLORER
    /// Empties the cache (the explorer, between executions: no reader is left).
    static func forgetEverything() {
        writer.withLock { retired in
            current.store(nil, ordering: .relaxed)
            retired.removeAll()
        }
    }

    /// The layout of `object`'s class if the current table has it (no insertion).
    static func cached(_ object: AnyObject) -> ObservableLayout? {
        let key = UInt(bitPattern: ObjectIdentifier(type(of: object)))
        return current.load(ordering: .acquiring)?.takeUnretainedValue().find(key)
    }

    /// How many tables were published since the cache was last emptied.
    static var tablesPublished: Int {
        writer.withLock { $0.count }
    }
    #endif
}

/// The synthesized `objectWillChange` of `object`: the same publisher on every access.
///
/// With `@Published` properties, the publisher lives in the first one's storage (found at the
/// class's cached field offset) and is linked into all of them, so a write reaches it without any
/// lookup. Without `@Published` properties it lives in a side table keyed by the object.
@usableFromInline
func objectWillChangePublisher(of object: AnyObject) -> ObservableObjectPublisher {
    let first = LayoutCache.firstPublishedOffset(of: object)
    guard first >= 0 else {
        return PublisherSideTable.publisher(for: object)
    }
    if let existing = withPublishedBox(of: object, at: first, { $0.objectWillChange }) {
        return existing
    }
    let firstBox = publishedBox(of: object, at: first)
    let layout = LayoutCache.layout(of: object)
    // First access (possibly raced by another thread): one publisher wins in the first box, and
    // every box is linked to it before anyone gets it back, so no write can miss a subscriber.
    let publisher = firstBox.install(ObservableObjectPublisher())
    for offset in layout.publishedOffsets.dropFirst() {
        _ = publishedBox(of: object, at: offset).install(publisher)
    }
    return publisher
}

/// The `PublishedBox` referenced by the `Published<T>` field at `offset` inside `object`.
private func publishedBox(of object: AnyObject, at offset: Int) -> PublishedBoxBase {
    unmanagedPublishedBox(of: object, at: offset).takeUnretainedValue()
}

/// Runs `body` on that box without retaining it (the object keeps it alive meanwhile).
private func withPublishedBox<R>(of object: AnyObject, at offset: Int, _ body: (PublishedBoxBase) -> R) -> R {
    unmanagedPublishedBox(of: object, at: offset)._withUnsafeGuaranteedRef(body)
}

func unmanagedPublishedBox(of object: AnyObject, at offset: Int) -> Unmanaged<PublishedBoxBase> {
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let boxPointer = base.load(fromByteOffset: offset, as: UnsafeRawPointer.self)
    return Unmanaged<PublishedBoxBase>.fromOpaque(boxPointer)
}

/// Will-change publishers of objects that have no `@Published` storage to keep one in.
///
/// Entries hold their object weakly; an entry whose object is gone is replaced when its address is
/// reused and swept out when the table has doubled since the last sweep.
enum PublisherSideTable {
    private struct Entry {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweepAt = 64
    }

    private static let state = LockedValue(State())

    static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let key = ObjectIdentifier(object)
        return state.withLock { state in
            if let entry = state.entries[key], entry.object === object {
                return entry.publisher
            }
            if state.entries.count >= state.sweepAt {
                state.entries = state.entries.filter { $0.value.object != nil }
                state.sweepAt = max(64, state.entries.count * 2)
            }
            let publisher = ObservableObjectPublisher()
            state.entries[key] = Entry(object: object, publisher: publisher)
            return publisher
        }
    }

    /// How many entries the table holds now (for tests of the sweep).
    static var count: Int {
        state.withLock { $0.entries.count }
    }
}

/// Every `@Published` property of `object`, as reads seen now (without reading the values): each
/// property's tracker, named, at its current version.
package func accessesToAllPublished(of object: AnyObject) -> [AccessCollector.Access] {
    let layout = LayoutCache.layout(of: object)
    let collector = AccessCollector()
    for (offset, name) in zip(layout.publishedOffsets, layout.publishedNames) {
        let box = unmanagedPublishedBox(of: object, at: offset).takeUnretainedValue()
        let tracker = box.observation()
        let version = tracker.version
        tracker.setIdentityIfAbsent { TrackedIdentity(name: name, keyPath: nil) }
        _ = collector.record(tracker, version: version, object: object)
    }
    return collector.accesses
}
