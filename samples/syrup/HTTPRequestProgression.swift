import Foundation
import Syrup

/// An HTTP request, from Syrup's README: a GET or a POST, run with URLSession, that ends in
/// `.success` or throws the session's error.
enum HTTPRequestProgression: Progression {
    typealias Result = (response: HTTPURLResponse, body: Data?)

    case get(url: URL)
    case post(url: URL, body: Data)
    case success(Result)

    mutating func updateOrDeferNext() -> Deferred<HTTPRequestProgression>? {
        switch self {
        case let .get(url):
            return Deferred.future { resolve in
                let session = URLSession.shared
                let task = session.dataTask(with: url, completionHandler: { data, response, error in
                    if let error = error {
                        resolve { throw error }
                    } else {
                        resolve { .success((response: response as! HTTPURLResponse, body: data)) }
                    }
                })
                task.resume()
            }
        case let .post(url, body):
            return Deferred.future { resolve in
                let session = URLSession.shared
                var request = URLRequest(url: url)
                request.httpMethod = "POST"
                request.httpBody = body
                let task = session.dataTask(with: request, completionHandler: { data, response, error in
                    if let error = error {
                        resolve { throw error }
                    } else {
                        resolve { .success((response: response as! HTTPURLResponse, body: data)) }
                    }
                })
                task.resume()
            }
        case .success:
            return nil
        }
    }

    var result: Result? {
        guard case let .success(result) = self else { return nil }
        return result
    }
}
