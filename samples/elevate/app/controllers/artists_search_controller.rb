# Tracking an artist with Elevate 0.4's `async`: the task is named after the method it is in.
class ArtistsSearchController < UIViewController
  include Elevate

  def searchBarSearchButtonClicked(searchBar)
    searchBar.resignFirstResponder
    track_artist(searchBar)
  end

  def track_artist(searchBar)
    async artist: searchBar.text do
      task do
        artist = API.track(@artist)
        ArtistDB.update(artist)
      end

      on_started do
        SVProgressHUD.showWithStatus("Adding...")
      end

      on_completed do |result, exception|
        SVProgressHUD.dismiss
        navigationController.popViewControllerAnimated(true) unless exception
      end
    end
  end
end
