import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { FORBIDDEN_MESSAGE } from './navigation';

/** A page of the platform the role may not open: 403 inside the frame (a made-up path goes to /404). */
export function ForbiddenPage() {
  const navigate = useNavigate();
  return (
    <div data-testid="forbidden-page">
      <Result
        status="403"
        title="403"
        subTitle={FORBIDDEN_MESSAGE}
        extra={
          <Button type="primary" onClick={() => navigate('/dashboard')}>
            返回工作台
          </Button>
        }
      />
    </div>
  );
}
