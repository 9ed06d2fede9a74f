// The app-shaped corpus: Swift files of which one in ten touches a flow library (Flow-iOS operations
// and view controllers with flows, and the key constants they read, declared in a file of their own
// that never names the library), the rest the ordinary code of an app: views, models, networking,
// view models and extensions of system types. Generated deterministically.
import Foundation

/// An app's ordinary (non-flow) Swift file number `n`, of one of five kinds.
func ordinaryFile(_ n: Int, _ random: inout Generator) -> String {
    switch n % 5 {
    case 0: return viewFile(n, &random)
    case 1: return modelFile(n, &random)
    case 2: return networkingFile(n, &random)
    case 3: return viewModelFile(n, &random)
    default: return extensionsFile(n, &random)
    }
}

private func viewFile(_ n: Int, _ random: inout Generator) -> String {
    var text = """
        import UIKit

        /// A card showing one item of list \(n).
        final class ItemCardView\(n): UIView {
            private let titleLabel = UILabel()
            private let detailLabel = UILabel()
            private let badge = UIImageView(image: UIImage(systemName: "star.fill"))
            var onTap: (() -> Void)?

            override init(frame: CGRect) {
                super.init(frame: frame)
                layer.cornerRadius = \(4 + random.next(12))
                backgroundColor = .secondarySystemBackground
                [titleLabel, detailLabel, badge].forEach { addSubview($0) }
                titleLabel.font = .preferredFont(forTextStyle: .headline)
                detailLabel.numberOfLines = \(random.next(4))
                addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(tapped)))
            }

            required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

            @objc private func tapped() { onTap?() }

            func configure(title: String, detail: String?, highlighted: Bool) {
                titleLabel.text = title
                detailLabel.text = detail ?? "—"
                badge.isHidden = !highlighted
                accessibilityLabel = "\\(title), \\(detail ?? "no detail")"
                setNeedsLayout()
            }


        """
    for k in 0..<6 {
        text += """
                private func frame\(k)(in bounds: CGRect, spacing: CGFloat) -> CGRect {
                    let inset = bounds.insetBy(dx: \(8 + random.next(8)), dy: \(4 + random.next(8)))
                    var rect = inset
                    rect.size.height = min(inset.height, CGFloat(\(20 + random.next(40))))
                    if rect.width > \(100 + random.next(200)) {
                        rect.origin.x += spacing * CGFloat(\(k))
                    } else {
                        rect = rect.offsetBy(dx: 0, dy: spacing)
                    }
                    return rect.integral
                }


            """
    }
    text += """
            override func layoutSubviews() {
                super.layoutSubviews()
                titleLabel.frame = frame0(in: bounds, spacing: 8)
                detailLabel.frame = frame1(in: bounds, spacing: 8)
                badge.frame = frame2(in: bounds, spacing: 4)
            }
        }

        """
    return text
}

private func modelFile(_ n: Int, _ random: inout Generator) -> String {
    var text = """
        import Foundation

        /// An order as the server sends it (list \(n)).
        struct Order\(n): Codable, Equatable, Identifiable {
            enum Status: String, Codable, CaseIterable {
                case draft, placed, packed, shipped, delivered, returned
            }

            let id: UUID
            var reference: String
            var status: Status
            var lines: [Line\(n)]
            var placedAt: Date?
            var notes: String?

            var total: Decimal { lines.reduce(0) { $0 + $1.price * Decimal($1.quantity) } }
            var isOpen: Bool { status != .delivered && status != .returned }
        }

        /// One line of an order.
        struct Line\(n): Codable, Equatable {
            var sku: String
            var quantity: Int
            var price: Decimal
        }

        extension Order\(n) {
            static let sample = Order\(n)(id: UUID(), reference: "R-\(random.next(9000) + 1000)", status: .placed,
                                      lines: [Line\(n)(sku: "SKU-\(random.next(999))", quantity: \(1 + random.next(5)), price: \(random.next(90)).99)],
                                      placedAt: nil, notes: nil)


        """
    for k in 0..<7 {
        text += """
                /// Lines matching rule \(k).
                func lines\(k)(minimum: Int = \(random.next(4))) -> [Line\(n)] {
                    lines.filter { line in
                        guard line.quantity >= minimum else { return false }
                        switch status {
                        case .draft, .placed: return line.price > \(random.next(50))
                        case .packed, .shipped: return !line.sku.isEmpty
                        default: return line.quantity % \(2 + random.next(3)) == 0
                        }
                    }
                }


            """
    }
    return text + "}\n"
}

private func networkingFile(_ n: Int, _ random: inout Generator) -> String {
    var text = """
        import Foundation

        /// The endpoints of service \(n).
        enum Endpoint\(n) {
            case list(page: Int)
            case detail(id: String)
            case update(id: String, body: Data)

            var path: String {
                switch self {
                case let .list(page): return "/v\(1 + random.next(3))/items?page=\\(page)"
                case let .detail(id): return "/v1/items/\\(id)"
                case let .update(id, _): return "/v1/items/\\(id)"
                }
            }

            var method: String {
                if case .update = self { return "PUT" }
                return "GET"
            }
        }

        /// A small client for service \(n), with retries.
        final class ServiceClient\(n) {
            private let session: URLSession
            private let base: URL
            private let decoder = JSONDecoder()
            private var retryLimit = \(1 + random.next(4))

            init(session: URLSession = .shared, base: URL = URL(string: "https://api\(n).example.com")!) {
                self.session = session
                self.base = base
                decoder.dateDecodingStrategy = .iso8601
            }

            func request(_ endpoint: Endpoint\(n)) -> URLRequest {
                var request = URLRequest(url: base.appendingPathComponent(endpoint.path))
                request.httpMethod = endpoint.method
                request.setValue("application/json", forHTTPHeaderField: "Accept")
                if case let .update(_, body) = endpoint { request.httpBody = body }
                return request
            }


        """
    for k in 0..<5 {
        text += """
                func fetch\(k)<T: Decodable>(_ endpoint: Endpoint\(n), as type: T.Type, attempt: Int = 0,
                                              completion: @escaping (Result<T, Error>) -> Void) {
                    session.dataTask(with: request(endpoint)) { [weak self] data, response, error in
                        guard let self else { return }
                        if let error, attempt < self.retryLimit {
                            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(\(100 * (1 + random.next(5))))) {
                                self.fetch\(k)(endpoint, as: type, attempt: attempt + 1, completion: completion)
                            }
                            _ = error
                            return
                        }
                        guard let data, (response as? HTTPURLResponse)?.statusCode ?? 500 < \(300 + random.next(100)) else {
                            completion(.failure(URLError(.badServerResponse)))
                            return
                        }
                        completion(Result { try self.decoder.decode(T.self, from: data) })
                    }.resume()
                }


            """
    }
    return text + "}\n"
}

private func viewModelFile(_ n: Int, _ random: inout Generator) -> String {
    var text = """
        import Foundation

        /// The state of screen \(n), kept apart from its view.
        @MainActor
        final class ScreenModel\(n): ObservableObject {
            enum Phase: Equatable { case idle, loading, loaded(count: Int), failed(String) }

            @Published private(set) var phase: Phase = .idle
            @Published var query = ""
            private var cache: [String: [String]] = [:]
            private let pageSize = \(10 + random.next(40))

            var visibleTitles: [String] {
                guard case .loaded = phase else { return [] }
                return (cache[query] ?? []).prefix(pageSize).map { $0.capitalized }
            }


        """
    for k in 0..<6 {
        text += """
                func refresh\(k)(with titles: [String]) {
                    phase = .loading
                    let cleaned = titles
                        .map { $0.trimmingCharacters(in: .whitespaces) }
                        .filter { !$0.isEmpty && $0.count < \(20 + random.next(60)) }
                    cache[query] = cleaned.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
                    if cleaned.isEmpty, \(random.next(2) == 0 ? "query.isEmpty" : "!query.isEmpty") {
                        phase = .failed("nothing matches '\\(query)'")
                    } else {
                        phase = .loaded(count: cleaned.count)
                    }
                }


            """
    }
    return text + "}\n"
}

private func extensionsFile(_ n: Int, _ random: inout Generator) -> String {
    var text = """
        import UIKit

        extension String {
            /// The string with its first letter upper-cased (set \(n)).
            var sentenceCased\(n): String { prefix(1).uppercased() + dropFirst() }

            func truncated\(n)(to length: Int = \(20 + random.next(60)), trailing: String = "…") -> String {
                count > length ? String(prefix(length)) + trailing : self
            }
        }

        extension Date {
            func isSameDay\(n)(as other: Date, in calendar: Calendar = .current) -> Bool {
                calendar.isDate(self, inSameDayAs: other)
            }
        }

        extension UIColor {
            static let accent\(n) = UIColor(red: \(random.next(255)) / 255, green: \(random.next(255)) / 255, blue: \(random.next(255)) / 255, alpha: 1)
        }

        extension Array where Element: Hashable {

        """
    for k in 0..<6 {
        text += """
                /// Elements in order, each once (variant \(k)).
                func uniqued\(n)_\(k)() -> [Element] {
                    var seen = Set<Element>()
                    var out: [Element] = []
                    out.reserveCapacity(count)
                    for element in self where seen.insert(element).inserted {
                        out.append(element)
                        if out.count > \(1000 + random.next(9000)) { break }
                    }
                    return out
                }


            """
    }
    return text + "}\n"
}

/// The file of key constants module `n`'s operations read: it never names the library, and is needed
/// all the same (`Keys\(n).token` resolves to its literal only with this file read).
func keysFile(_ n: Int) -> String {
    """
    import Foundation

    /// The data keys of module \(n), in one place.
    enum Keys\(n) {
        static let token = "token\(n)"
        static let receipt = "receipt\(n)"
    }

    """
}

/// An operation of module `n` that reads and writes keys declared in `keysFile(n)`.
func keyedOperationFile(_ n: Int) -> String {
    """
    import Flow_iOS

    final class Module\(n)TokenOp: FlowOperation {
        override func mainLogic() {
            guard let token: String = getData(name: Keys\(n).token) else { return }
            setData(name: Keys\(n).receipt, value: token + "-ok")
            finishSuccessfully()
        }
    }

    final class Module\(n)ReceiptOp: FlowOperation {
        override func mainLogic() {
            let receipt: String? = getData(name: Keys\(n).receipt)
            log(message: receipt ?? "none")
            finishSuccessfully()
        }
    }

    final class Module\(n)KeyedViewController: UIViewController {
        func run() {
            Flow()
                .add(operation: Module\(n)TokenOp())
                .add(operation: Module\(n)ReceiptOp())
                .start()
        }
    }

    """
}
