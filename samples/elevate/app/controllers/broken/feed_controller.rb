# Refreshing a news feed (Elevate 0.4). Planted defect: ui-access-in-task.
class FeedController < UITableViewController
  include Elevate

  FEED_URL = "https://api.example.org/v2/feed.json"

  def viewDidLoad
    super
    self.refreshControl = UIRefreshControl.alloc.init
    refreshControl.addTarget(self, action: "refresh:", forControlEvents: UIControlEventValueChanged)
  end

  def refresh(sender)
    @refresh_task = async url: FEED_URL do
      task do
        items = Elevate::HTTP.get(@url).body.map { |json| FeedItem.new(json) }
        FeedItem.save_all(items)
        # defect: ui-access-in-task — reloads the table view from the background thread (and the task block's self is not the controller)
        tableView.reloadData
        items.count
      end

      on_completed do |count, exception|
        refreshControl.endRefreshing
      end
    end
  end
end
