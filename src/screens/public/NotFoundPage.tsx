import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

/** A path nothing knows (/404), shown inside the frame (issue 34): the menu and the tabs lead on. */
export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <div data-testid="not-found-page">
      <Result
        status="404"
        title="404"
        subTitle="抱歉，您访问的页面不存在"
        extra={
          <Button type="primary" onClick={() => navigate('/dashboard')}>
            返回首页
          </Button>
        }
      />
    </div>
  );
}
