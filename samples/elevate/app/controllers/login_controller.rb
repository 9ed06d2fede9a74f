# Logging in with Elevate 0.4's `async`, as in Elevate's README.
class LoginController < UIViewController
  include Elevate

  attr_accessor :username, :password

  def viewDidLoad
    super

    self.title = "Log in"
    @login_button = UIButton.buttonWithType(UIButtonTypeRoundedRect)
    @login_button.addTarget(self, action: "login:", forControlEvents: UIControlEventTouchUpInside)
    view.addSubview(@login_button)
  end

  def login(sender)
    return if username.text.empty? || password.text.empty?

    @login_task = async username: username.text, password: password.text do
      task do
        # This block runs on a background thread.
        #
        # The @username and @password instance variables correspond to the args
        # passed into async. API is a thin wrapper class over Elevate::HTTP,
        # which blocks until the request returns, yet can be interrupted.
        credentials = API.login(@username, @password)
        if credentials
          UserRegistration.store(credentials.username, credentials.token)
        end

        # Return value of block is passed back to on_completed
        credentials != nil
      end

      on_started do
        # This block runs on the UI thread after the operation has been queued.
        SVProgressHUD.showWithStatus("Logging In...")
      end

      on_completed do |result, exception|
        # This block runs on the UI thread after the task block has finished.
        SVProgressHUD.dismiss

        if exception == nil
          if result
            alert("Logged in successfully!")
          else
            alert("Invalid username/password!")
          end
        else
          alert(exception)
        end
      end
    end
  end

  def viewWillDisappear(animated)
    super
    @login_task.cancel if @login_task
  end

  private

  def alert(message)
    UIAlertView.alloc.initWithTitle("Login", message: message.to_s, delegate: nil,
                                    cancelButtonTitle: "OK", otherButtonTitles: nil).show
  end
end
