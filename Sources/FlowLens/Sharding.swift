import Dispatch
import Foundation

/// Splits a run's files into shards (`--shard I/N`) so that every shard finds exactly what one run
/// over all the files finds about its flows: files are split by FLOW, not one by one.
///
/// What the loaders and rules read together stays together (a "unit"):
/// - Every Swift and PlantUML file is one unit. Swift is read as one batch (a Flow-iOS flow's
///   operation classes, a FlowState or Syrup flow's step types may be declared in any file), a FlowKit
///   machine is linked to the Swift controller that adopts `<Name>StateMachine`, and a state's model
///   to a class diagram in another `.puml` file; telling which files those are would need the full
///   parse sharding is meant to spread.
/// - A declarative or Elevate file joins every file that defines a flow of the same id or name
///   (a duplicate id is renamed in run order; a sub-flow reference resolves to the first flow of that
///   name), every file defining a flow it runs as a sub-flow or names as its parent, and the Swift and
///   PlantUML unit when a sub-flow it runs is not defined in a declarative or Elevate file, or when
///   Swift or PlantUML text mentions one of its flows.
///
/// Discovery is cheap: declarative and Elevate files are loaded one at a time (their loaders are
/// linear and need no other file); Swift and PlantUML files are only scanned for words.
/// Units are then dealt to shards largest first (by bytes), each to the least loaded shard, ties to
/// the lowest shard and the first path: the same files give the same split on every machine.
public enum ShardPlanner {
    /// The units of `files`, each in the order given (sorted by display path), ordered by their first file.
    public static func units(of files: [InputFile], limits: Limits = .default) -> [[InputFile]] {
        var parent = Array(files.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        func join(_ a: Int, _ b: Int) {
            let ra = root(a), rb = root(b)
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        let batch = files.indices.filter { files[$0].kind == .swift || files[$0].kind == .plantUML }
        for i in batch.dropFirst() { join(batch[0], i) }
        let inBatch = Set(batch)
        let single = files.indices.filter { !inBatch.contains($0) }

        // Each declarative or Elevate file on its own: its flows' ids and names, and what they reference.
        var perFile = SourceLoader(environment: [:])
        perFile.limits = limits
        let loader = perFile
        let graphs = single.parallelMap { loader.load(files: [files[$0]]) }
        var definedBy: [String: [Int]] = [:]
        var references: [(file: Int, name: String)] = []
        for (n, file) in single.enumerated() {
            for flow in graphs[n].flows {
                for name in Set([flow.id, flow.name]) { definedBy[name, default: []].append(file) }
                if let parentName = flow.parent { references.append((file, parentName)) }
                for step in flow.steps { if let callee = step.subflow { references.append((file, callee)) } }
            }
        }
        for owners in definedBy.values { for other in owners.dropFirst() { join(owners[0], other) } }
        for (file, name) in references {
            if let owners = definedBy[name] {
                for owner in owners { join(file, owner) }
            } else if let first = batch.first {
                join(file, first)
            }
        }
        if let first = batch.first, !definedBy.isEmpty {
            let mentioned = Mentions(files: batch.map { files[$0] }, limits: limits)
            for (name, owners) in definedBy where mentioned.contains(name) {
                for owner in owners { join(first, owner) }
            }
        }
        var byRoot: [Int: [InputFile]] = [:]
        for i in files.indices { byRoot[root(i), default: []].append(files[i]) }
        return byRoot.keys.sorted().map { byRoot[$0]! }
    }

    /// The files of `shard`, in the order given: its units' files.
    public static func files(of shard: Shard, in files: [InputFile], limits: Limits = .default) -> [InputFile] {
        let units = units(of: files, limits: limits)
        let sizes = units.map { unit in
            unit.reduce(0) { total, file in
                total + ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) + 1
            }
        }
        var load = Array(repeating: 0, count: shard.count)
        var mine = Set<String>()
        for u in units.indices.sorted(by: { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }) {
            let target = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
            load[target] += sizes[u]
            if target == shard.index - 1 { mine.formUnion(units[u].map(\.path)) }
        }
        return files.filter { mine.contains($0.path) }
    }

    /// The words of Swift and PlantUML files, to tell cheaply whether they may name a flow.
    private struct Mentions {
        var words = Set<Substring>()

        /// Characters that end a word: space and the punctuation around identifiers and string literals.
        static let separators = Set<Character>(" \t\r\n\"'`()[]{},;:<>=+*!?&|\\#@$%^~")

        init(files: [InputFile], limits: Limits) {
            for file in files {
                guard case let .success(bytes) = InputReading.bytes(atPath: file.path, maximumBytes: limits.fileBytes) else { continue }
                let data = Data(bytes)
                for word in String(decoding: data, as: UTF8.self).split(whereSeparator: Self.separators.contains) { words.insert(word) }
            }
        }

        /// Whether every word of `name` is a word of some file: a name that is mentioned passes, and
        /// one that passes without being mentioned only joins more files than needed.
        func contains(_ name: String) -> Bool {
            name.split(whereSeparator: Self.separators.contains).allSatisfy(words.contains)
        }
    }
}
