# A thin wrapper over Elevate::HTTP. Every method blocks until the request returns, so it must only
# be called from a task's background block, where Elevate can interrupt it.
class ArtworkMissingError < StandardError; end

module API
  BASE_URL = "https://api.example.org/v2"

  class Error < StandardError
    attr_reader :status

    def initialize(message, status = nil)
      super(message)
      @status = status
    end
  end

  class << self
    def login(username, password)
      response = Elevate::HTTP.post("#{BASE_URL}/sessions", json: { username: username, password: password })
      return nil if response.status_code == 401
      raise Error.new("login failed", response.status_code) unless response.status_code == 201

      Credentials.new(response.body["username"], response.body["token"])
    end

    def track(artist_name)
      Elevate::HTTP.post("#{BASE_URL}/tracked_artists", json: { name: artist_name }).body
    end

    def photos(album_id, since:)
      query = { album: album_id, since: since.to_i }
      Elevate::HTTP.get("#{BASE_URL}/photos", query: query).body.map { |json| Photo.new(json) }
    end

    def update_profile(profile)
      Elevate::HTTP.put("#{BASE_URL}/profile", json: profile.to_h)
    end

    # Used by the release notes screen; the text mentions "end" and "do" on purpose.
    def release_notes
      <<~NOTES
        What's new:
        - Downloads no longer stop at the end of a slow connection.
        - Pull to refresh: do it twice to clear the cache.
      NOTES
    end

    def status_text(code)
      case code
      when 200...300 then "ok"
      when 401, 403 then "not allowed"
      else
        "failed (#{code})"
      end
    end
  end
end

Credentials = Struct.new(:username, :token)
